package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.kernels.Kernel;

record LayerNorm(GpuActivations x, GpuWeight weight, GpuWeight bias, float eps, int n, GpuActivations out)
        implements DeviceOp {

    @Override
    public void launch(Launch l) {
        l.kernel(
                Kernel.LAYER_NORM_F32,
                LaunchConfig.of(n, Launch.ROW_THREADS),
                KernelArgs.of()
                        .pointer(x.buffer)
                        .pointer(weight.vector)
                        .pointer(bias.vector)
                        .pointer(out.buffer)
                        .i32(x.cols())
                        .f32(eps));
    }

    @Override
    public String profileKey() {
        return "layerNorm " + x.cols() + " n=" + n;
    }
}
