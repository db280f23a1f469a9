package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.kernels.Kernel;

/** {@code x += residual} followed by {@link RmsNorm} of x: the pair a pre-norm block issues, fused. */
record AddRmsNorm(
        GpuActivations x,
        GpuActivations residual,
        GpuWeight weight,
        float eps,
        int n,
        GpuActivations out,
        boolean quantize)
        implements DeviceOp {

    @Override
    public void launch(Launch l) {
        if (quantize) {
            RmsNorm.launchQuantizing(l, x, residual, weight, out, n, eps);
            return;
        }
        int cols = x.cols();
        boolean v4 = cols % 4 == 0;
        l.kernel(
                v4 ? Kernel.ADD_RMS_NORM_V4 : Kernel.ADD_RMS_NORM_F32,
                LaunchConfig.of(n, v4 ? Launch.rowThreads(cols) : Launch.ROW_THREADS),
                KernelArgs.of()
                        .pointer(x.buffer)
                        .pointer(residual.buffer)
                        .pointer(weight.vector)
                        .pointer(out.buffer)
                        .i32(cols)
                        .f32(eps));
    }

    AddRmsNorm quantizing() {
        return new AddRmsNorm(x, residual, weight, eps, n, out, true);
    }

    @Override
    public String profileKey() {
        return "add+rmsNorm " + x.cols() + (quantize ? "+q8" : "") + " n=" + n;
    }
}
