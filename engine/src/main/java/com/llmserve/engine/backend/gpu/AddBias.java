package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.kernels.Kernel;

/** {@code x[t] += bias}. */
record AddBias(GpuActivations x, GpuWeight bias, int n) implements DeviceOp {

    @Override
    public void launch(Launch l) {
        int cols = x.cols();
        long total = (long) n * cols;
        l.kernel(
                Kernel.ADD_BIAS_F32,
                Launch.covering(total),
                KernelArgs.of().pointer(x.buffer).pointer(bias.vector).i32(cols).i32(Math.toIntExact(total)));
    }

    @Override
    public String profileKey() {
        return "addBias n=" + n;
    }
}
