package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_TOPK_THREADS;

import com.llmserve.engine.backend.gpu.Scratch.Slot;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.kernels.Kernel;

/** The k best logits of each of n rows, into the top-k scratch. */
record TopK(GpuActivations x, int n, int k) implements DeviceOp {

    @Override
    public void reserve(Workspace w) {
        w.reserve(Slot.TOPK_IDS, (long) n * k * Integer.BYTES);
        w.reserve(Slot.TOPK_VALUES, (long) n * k * Float.BYTES);
    }

    @Override
    public void launch(Launch l) {
        l.kernel(
                Kernel.TOPK_F32,
                LaunchConfig.of(n, LS_TOPK_THREADS),
                KernelArgs.of()
                        .pointer(x.buffer)
                        .i32(x.cols())
                        .i32(k)
                        .pointer(l.scratch(Slot.TOPK_IDS))
                        .pointer(l.scratch(Slot.TOPK_VALUES)));
    }

    @Override
    public String profileKey() {
        return "topK k=" + k + " n=" + n;
    }
}
