package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_TOPK_THREADS;

import com.llmserve.engine.backend.gpu.Scratch.Slot;
import com.llmserve.gpu.DeviceBuffer;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.kernels.Kernel;

/**
 * The k best logits of each of n rows, into the top-k scratch, or into {@code kept} (ids, then
 * values right after them: one copy takes both back, and the next step finds the ids where they
 * were left); among the columns a mask allows when {@code maskAt} points to one in the step's int
 * region (32-bit words per row), else among all.
 */
record TopK(GpuActivations x, int n, int k, int maskAt, DeviceBuffer kept) implements DeviceOp {

    static final int NO_MASK = -1;

    TopK(GpuActivations x, int n, int k, int maskAt) {
        this(x, n, k, maskAt, null);
    }

    @Override
    public void reserve(Workspace w) {
        // also with kept: the scratch grows with the steps that choose on the device, whichever
        // kind, so a serving engine reaches its high-water mark as it did before there were two
        w.reserve(Slot.TOPK_IDS, (long) n * k * Integer.BYTES);
        w.reserve(Slot.TOPK_VALUES, (long) n * k * Float.BYTES);
    }

    @Override
    public void launch(Launch l) {
        KernelArgs args = KernelArgs.of().pointer(x.buffer).i32(x.cols()).i32(k);
        args = kept == null
                ? args.pointer(l.scratch(Slot.TOPK_IDS)).pointer(l.scratch(Slot.TOPK_VALUES))
                : args.pointer(kept).pointer(kept, (long) n * k * Integer.BYTES);
        args = maskAt == NO_MASK ? args.nullPointer() : l.ints(args, maskAt);
        l.kernel(Kernel.TOPK_F32, LaunchConfig.of(n, LS_TOPK_THREADS), args.i32((x.cols() + 31) >>> 5));
    }

    @Override
    public String profileKey() {
        return "topK k=" + k + " n=" + n + (maskAt == NO_MASK ? "" : " masked");
    }
}
