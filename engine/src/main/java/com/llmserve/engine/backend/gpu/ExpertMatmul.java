package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_GROUP_THREADS;
import static com.llmserve.kernels.KernelConstants.LS_MMV_MAX_COLS;
import static com.llmserve.kernels.KernelConstants.LS_MMV_THREADS;
import static com.llmserve.kernels.KernelConstants.LS_QK;

import com.llmserve.engine.backend.gpu.Scratch.Slot;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.kernels.Kernel;

/**
 * {@code out[p] = W[expert(p)] x[row(p)]} over a mixture's stacked experts for the pairs of
 * {@code tokens} routing rows (pair {@code p = t * used + j}): one launch groups the pairs by expert
 * on the device (into the expert-group scratch), then per stack segment the activations are rounded
 * as the segment's type wants (once per rounding) and two grouped GEMV launches run, one over the
 * groups of a single column and one over the groups of two to {@code LS_MMV_MAX_COLS}, each group
 * one expert read once for its columns (batch-invariant: every group one column). Nothing depends on the routing on the host, and the grids
 * are sized by the pair count alone, so a captured graph serves every routing; a grid row strides
 * over the groups, so absent groups cost no blocks.
 *
 * @param xFirst   the activation row of token 0 (when not {@code xPerPair})
 * @param xPerPair whether pair {@code p} reads row {@code p} (an expert's hidden rows) rather than its token's
 * @param xRows    rows of {@code x} to round (every row a pair reads)
 */
record ExpertMatmul(
        GpuWeight weight,
        GpuActivations routing,
        int tokens,
        int xFirst,
        boolean xPerPair,
        GpuActivations x,
        int xRows,
        GpuActivations out)
        implements DeviceOp {

    /** Ints per one-column group. */
    static final int SINGLE_INTS = 4;

    /** Ints per wider group. */
    static final int MULTI_INTS = 2 + 2 * LS_MMV_MAX_COLS;

    /**
     * The most grid rows a launch takes: each strides over the groups, so this only bounds how many
     * groups run at once (a layer's rows give the rest of the parallelism).
     */
    static final int MAX_GRID_ROWS = 64;

    int used() {
        return routing.cols() / 2;
    }

    int pairs() {
        return tokens * used();
    }

    /** Wider groups the pairs can form (each has two columns at least). */
    private int multiSlots() {
        return Math.max(1, pairs() / 2);
    }

    @Override
    public int n() {
        return pairs();
    }

    @Override
    public void reserve(Workspace w) {
        w.reserve(Slot.EXPERT_SINGLES, (1L + (long) pairs() * SINGLE_INTS) * Integer.BYTES);
        w.reserve(Slot.EXPERT_MULTIS, (1L + (long) multiSlots() * MULTI_INTS) * Integer.BYTES);
        int k = weight.cols();
        for (GpuWeight.Segment s : weight.segments()) {
            switch (Matmul.gemvRounding(s.band())) {
                case Q8_0_INT -> {
                    w.reserve(Slot.XQ, (long) xRows * k);
                    w.reserve(Slot.XD, (long) xRows * (k / LS_QK) * Float.BYTES);
                    w.reserve(Slot.XS, (long) xRows * (k / LS_QK) * Integer.BYTES);
                }
                case NONE -> {}
                default -> w.reserve(Slot.XF, (long) xRows * k * Float.BYTES);
            }
        }
    }

    @Override
    public void launch(Launch l) {
        l.kernel(
                Kernel.GROUP_EXPERTS,
                new LaunchConfig(1, 1, 1, LS_GROUP_THREADS, 1, 1, 0),
                KernelArgs.of()
                        .pointer(routing.buffer)
                        .pointer(l.scratch(Slot.EXPERT_SINGLES))
                        .pointer(l.scratch(Slot.EXPERT_MULTIS))
                        .i32(tokens)
                        .i32(used())
                        .i32(weight.experts())
                        .i32(xFirst)
                        .i32(xPerPair ? 1 : 0)
                        // batch-invariant: every pair in a group of its own, computed as if alone
                        .i32(l.options().batchInvariant() ? 1 : LS_MMV_MAX_COLS));
        int k = weight.cols();
        Matmul.Prepared prepared = Matmul.Prepared.NONE;
        for (GpuWeight.Segment s : weight.segments()) {
            Matmul.Prepared wanted = Matmul.gemvRounding(s.band());
            if (wanted != Matmul.Prepared.NONE && wanted != prepared) {
                Matmul.prepare(l, x, xRows, k, wanted);
                prepared = wanted;
            }
            launch(l, s, 1, Slot.EXPERT_SINGLES, pairs(), wanted);
            launch(l, s, LS_MMV_MAX_COLS, Slot.EXPERT_MULTIS, multiSlots(), wanted);
        }
    }

    private void launch(Launch l, GpuWeight.Segment s, int columns, Slot groups, int slots, Matmul.Prepared rounding) {
        GpuWeight.Band band = s.band();
        int k = weight.cols();
        int rows = s.rowsPerExpert();
        int blockRows = Matmul.gemvRows(columns);
        int gridRows = Math.min(slots, MAX_GRID_ROWS);
        LaunchConfig grid = new LaunchConfig((rows + blockRows - 1) / blockRows, gridRows, 1, LS_MMV_THREADS, 1, 1, 0);
        KernelArgs args = KernelArgs.of().pointer(band.data()).pointer(band.data(), band.scalesOffset());
        switch (rounding) {
            case Q8_0_INT -> l.q8(args, 0, k);
            case NONE -> args.pointer(x.buffer);
            default -> args.pointer(l.scratch(Slot.XF));
        }
        args.pointer(out.buffer, (long) s.outCol() * Float.BYTES).pointer(l.scratch(groups));
        args.i64(s.firstRow()).i32(rows).i32(k).i32(out.cols()).i32(gridRows);
        l.kernel(band.format().expertGemvKernel(columns, k), grid, args);
    }

    @Override
    public long weightBytes() {
        return weight.byteSize();
    }

    @Override
    public String profileKey() {
        return "expertMatmul " + weight.rows() + "x" + weight.cols() + " of " + weight.experts() + " pairs=" + pairs();
    }
}
