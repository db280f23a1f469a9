package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_ROUTE_THREADS;

import com.llmserve.engine.backend.Gating;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.kernels.Kernel;

/**
 * A mixture's routing of router-logit rows {@code [first, first + tokens)} into routing rows (ids,
 * then weights), by {@code gating}.
 */
record RouteExperts(GpuActivations logits, int first, int tokens, float scale, Gating gating, GpuActivations routing)
        implements DeviceOp {

    @Override
    public int n() {
        return tokens;
    }

    @Override
    public void launch(Launch l) {
        l.kernel(
                Kernel.ROUTE_EXPERTS_F32,
                new LaunchConfig(tokens, 1, 1, LS_ROUTE_THREADS, 1, 1, 0),
                KernelArgs.of()
                        .pointer(logits.buffer)
                        .pointer(routing.buffer)
                        .i32(first)
                        .i32(logits.cols())
                        .i32(routing.cols() / 2)
                        .f32(scale)
                        .i32(gating == Gating.SOFTMAX_OF_TOP_K ? 1 : 0));
    }

    @Override
    public String profileKey() {
        return "routeExperts " + gating.name().toLowerCase(java.util.Locale.ROOT) + " " + logits.cols() + " top "
                + routing.cols() / 2 + " n=" + tokens;
    }
}
