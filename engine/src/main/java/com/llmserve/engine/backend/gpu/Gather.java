package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.kernels.Kernel;

/** {@code out[i] = x[rows[i]]}; the row indices sit at {@code rows} in the step's int region. */
record Gather(GpuActivations x, int rows, int n, GpuActivations out) implements DeviceOp {

    @Override
    public void launch(Launch l) {
        int cols = x.cols();
        int total = Math.toIntExact((long) n * cols);
        KernelArgs args = l.ints(KernelArgs.of().pointer(x.buffer), rows);
        l.kernel(
                Kernel.GATHER_ROWS_F32,
                Launch.covering(total),
                args.pointer(out.buffer).i32(cols).i32(total));
    }

    @Override
    public String profileKey() {
        return "gather n=" + n;
    }
}
