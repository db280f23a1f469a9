package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.kernels.Kernel;

/** @param quantize also write the Q8_0 form of {@code out} for the GEMV that follows (fused) */
record SwiGlu(GpuActivations gateUp, int n, GpuActivations out, boolean quantize) implements DeviceOp {

    @Override
    public void launch(Launch l) {
        int f = out.cols();
        int total = Math.toIntExact((long) n * f);
        KernelArgs args = KernelArgs.of().pointer(gateUp.buffer).pointer(out.buffer);
        if (quantize) {
            l.kernel(
                    Kernel.SWIGLU_Q8,
                    Launch.covering(total),
                    l.q8(args, 0, f).i32(f).i32(total));
        } else {
            l.kernel(Kernel.SWIGLU_F32, Launch.covering(total), args.i32(f).i32(total));
        }
    }

    SwiGlu quantizing() {
        return new SwiGlu(gateUp, n, out, true);
    }

    @Override
    public String profileKey() {
        return "swiGlu " + out.cols() + (quantize ? "+q8" : "") + " n=" + n;
    }
}
