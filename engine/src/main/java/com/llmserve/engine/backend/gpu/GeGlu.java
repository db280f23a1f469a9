package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.kernels.Kernel;

/** {@code out = gelu(gate) * up} over the fused gate|up halves of {@code gateUp}. */
record GeGlu(GpuActivations gateUp, int n, GpuActivations out) implements DeviceOp {

    @Override
    public void launch(Launch l) {
        int f = out.cols();
        int total = Math.toIntExact((long) n * f);
        l.kernel(
                Kernel.GEGLU_F32,
                Launch.covering(total),
                KernelArgs.of()
                        .pointer(gateUp.buffer)
                        .pointer(out.buffer)
                        .i32(f)
                        .i32(total));
    }

    @Override
    public String profileKey() {
        return "geGlu " + out.cols() + " n=" + n;
    }
}
