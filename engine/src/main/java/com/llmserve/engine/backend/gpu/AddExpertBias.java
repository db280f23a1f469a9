package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.kernels.Kernel;

/**
 * A bias per expert on the (token, expert) pairs of {@code tokens} routing rows: columns
 * {@code [col, col + width)} of pair row {@code p} of {@code y} get its expert's row of {@code bias}.
 */
record AddExpertBias(GpuActivations y, int col, int width, GpuWeight bias, GpuActivations routing, int tokens)
        implements DeviceOp {

    @Override
    public int n() {
        return tokens;
    }

    @Override
    public void launch(Launch l) {
        int used = routing.cols() / 2;
        int total = Math.toIntExact((long) tokens * used * width);
        l.kernel(
                Kernel.ADD_EXPERT_BIAS_F32,
                Launch.covering(total),
                KernelArgs.of()
                        .pointer(y.buffer)
                        .pointer(routing.buffer)
                        .pointer(bias.vector)
                        .i32(y.cols())
                        .i32(col)
                        .i32(width)
                        .i32(used)
                        .i32(bias.cols() / width)
                        .i32(total));
    }

    @Override
    public String profileKey() {
        return "addExpertBias " + width + " n=" + tokens;
    }
}
