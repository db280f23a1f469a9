package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Pooling;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.kernels.Kernel;

/** The pooled row of each of {@code n} sequences; the span starts sit at {@code starts} in the step's int region. */
record Pool(GpuActivations x, int starts, int n, Pooling pooling, GpuActivations out) implements DeviceOp {

    @Override
    public void launch(Launch l) {
        int cols = x.cols();
        // the kernel's modes are llama.cpp's pooling ids: 1 mean, 2 first row, 3 last row
        KernelArgs args = l.ints(KernelArgs.of().pointer(x.buffer), starts)
                .pointer(out.buffer)
                .i32(cols)
                .i32(pooling.ggufId());
        l.kernel(
                Kernel.POOL_F32,
                new LaunchConfig(n, (cols + Launch.THREADS - 1) / Launch.THREADS, 1, Launch.THREADS, 1, 1, 0),
                args);
    }

    @Override
    public String profileKey() {
        return "pool " + pooling + " sequences=" + n;
    }
}
