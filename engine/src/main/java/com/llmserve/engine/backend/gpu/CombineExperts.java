package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.kernels.Kernel;

/** A mixture's weighted sum of its experts' outputs into rows {@code [first, first + tokens)}; the weights' float bits at {@code weights} in the int region. */
record CombineExperts(GpuActivations y, int weights, int used, int first, int tokens, GpuActivations out)
        implements DeviceOp {

    @Override
    public int n() {
        return tokens;
    }

    @Override
    public void launch(Launch l) {
        KernelArgs args = l.ints(KernelArgs.of().pointer(y.buffer), weights);
        l.kernel(
                Kernel.COMBINE_EXPERTS_F32,
                Launch.covering((long) tokens * out.cols()),
                args.pointer(out.buffer).i32(first).i32(tokens).i32(used).i32(out.cols()));
    }

    @Override
    public String profileKey() {
        return "combineExperts " + out.cols() + " x" + used + " n=" + tokens;
    }
}
