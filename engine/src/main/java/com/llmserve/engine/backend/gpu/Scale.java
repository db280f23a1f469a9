package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.kernels.Kernel;

/** {@code x *= factor}. */
record Scale(GpuActivations x, float factor, int n) implements DeviceOp {

    @Override
    public void launch(Launch l) {
        int total = Math.toIntExact((long) n * x.cols());
        l.kernel(
                Kernel.SCALE_F32,
                Launch.covering(total),
                KernelArgs.of().pointer(x.buffer).f32(factor).i32(total));
    }

    @Override
    public String profileKey() {
        return "scale " + x.cols() + " n=" + n;
    }
}
