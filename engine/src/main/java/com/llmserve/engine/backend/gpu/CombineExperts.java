package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.kernels.Kernel;

/** A mixture's weighted sum of its experts' outputs into rows {@code [first, first + tokens)}, the weights from the routing rows. */
record CombineExperts(GpuActivations y, GpuActivations routing, int first, int tokens, GpuActivations out)
        implements DeviceOp {

    @Override
    public int n() {
        return tokens;
    }

    @Override
    public void launch(Launch l) {
        l.kernel(
                Kernel.COMBINE_EXPERTS_F32,
                Launch.covering((long) tokens * out.cols()),
                KernelArgs.of()
                        .pointer(y.buffer)
                        .pointer(routing.buffer)
                        .pointer(out.buffer)
                        .i32(first)
                        .i32(tokens)
                        .i32(routing.cols() / 2)
                        .i32(out.cols()));
    }

    @Override
    public String profileKey() {
        return "combineExperts " + out.cols() + " x" + routing.cols() / 2 + " n=" + tokens;
    }
}
