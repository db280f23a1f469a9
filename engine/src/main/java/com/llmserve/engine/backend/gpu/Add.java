package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.kernels.Kernel;

/** {@code x[t] += y[t]}. */
record Add(GpuActivations x, GpuActivations y, int n) implements DeviceOp {

    @Override
    public void launch(Launch l) {
        long total = (long) n * x.cols();
        l.kernel(
                Kernel.VECTOR_ADD_F32,
                Launch.covering(total),
                KernelArgs.of()
                        .pointer(x.buffer)
                        .pointer(y.buffer)
                        .pointer(x.buffer)
                        .i32(Math.toIntExact(total)));
    }

    @Override
    public String profileKey() {
        return "add n=" + n;
    }
}
