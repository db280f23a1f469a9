package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Glu;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.kernels.Kernel;

/** gpt-oss's SwiGLU ({@link Glu#SWIGLU_OAI}) over fused gate|up rows. */
record SwiGluOai(GpuActivations gateUp, int n, GpuActivations out) implements DeviceOp {

    @Override
    public void launch(Launch l) {
        int f = out.cols();
        int total = Math.toIntExact((long) n * f);
        l.kernel(
                Kernel.SWIGLU_OAI_F32,
                Launch.covering(total),
                KernelArgs.of()
                        .pointer(gateUp.buffer)
                        .pointer(out.buffer)
                        .f32(Glu.OAI_ALPHA)
                        .f32(Glu.OAI_LIMIT)
                        .i32(f)
                        .i32(total));
    }

    @Override
    public String profileKey() {
        return "swiGluOai " + out.cols() + " n=" + n;
    }
}
