package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.kernels.Kernel;

/**
 * {@code out[rows[i]] = scales[i] * y[i]} ({@code +=} when accumulating). The one-based rows and
 * the scales' float bits sit at {@code rows} and {@code scales} in the step's int region.
 */
record Scatter(GpuActivations y, int rows, int scales, boolean accumulate, int n, GpuActivations out)
        implements DeviceOp {

    @Override
    public void launch(Launch l) {
        int cols = y.cols();
        int total = Math.toIntExact((long) n * cols);
        KernelArgs args = l.ints(l.ints(KernelArgs.of().pointer(y.buffer), rows), scales);
        l.kernel(
                Kernel.SCATTER_ROWS_F32,
                Launch.covering(total),
                args.pointer(out.buffer).i32(cols).i32(accumulate ? 1 : 0).i32(total));
    }

    @Override
    public String profileKey() {
        return "scatter " + y.cols() + " n=" + n;
    }
}
