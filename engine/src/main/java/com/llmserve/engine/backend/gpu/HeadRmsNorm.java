package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_HEAD_THREADS;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.kernels.Kernel;

/** RMSNorm of each of {@code heads} heads of {@code headDim} from column {@code col}, in place; a block per head. */
record HeadRmsNorm(GpuActivations x, int col, int heads, int headDim, GpuWeight weight, float eps, int n)
        implements DeviceOp {

    @Override
    public void launch(Launch l) {
        l.kernel(
                Kernel.HEAD_RMS_NORM_F32,
                LaunchConfig.of(n * heads, LS_HEAD_THREADS),
                KernelArgs.of()
                        .pointer(x.buffer)
                        .pointer(weight.vector)
                        .i32(x.cols())
                        .i32(col)
                        .i32(heads)
                        .i32(headDim)
                        .f32(eps));
    }

    @Override
    public String profileKey() {
        return "headRmsNorm " + heads + "x" + headDim + " n=" + n;
    }
}
