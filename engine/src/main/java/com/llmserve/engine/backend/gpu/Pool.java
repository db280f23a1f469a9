package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_POOL_FIRST;
import static com.llmserve.kernels.KernelConstants.LS_POOL_LAST;
import static com.llmserve.kernels.KernelConstants.LS_POOL_MEAN;

import com.llmserve.engine.backend.Pooling;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.kernels.Kernel;

/** The pooled row of each of {@code n} sequences; the span starts sit at {@code starts} in the step's int region. */
record Pool(GpuActivations x, int starts, int n, Pooling pooling, GpuActivations out) implements DeviceOp {

    @Override
    public void launch(Launch l) {
        int cols = x.cols();
        KernelArgs args = l.ints(KernelArgs.of().pointer(x.buffer), starts)
                .pointer(out.buffer)
                .i32(cols)
                .i32(
                        switch (pooling) {
                            case MEAN -> LS_POOL_MEAN;
                            case CLS -> LS_POOL_FIRST;
                            case LAST -> LS_POOL_LAST;
                        });
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
