package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_GROUP_THREADS;
import static com.llmserve.kernels.KernelConstants.LS_MMQ_COLS;
import static com.llmserve.kernels.KernelConstants.LS_MMQ_ROWS;
import static com.llmserve.kernels.KernelConstants.LS_MMQ_THREADS;
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
 * one expert read once for its columns (batch-invariant: every group one column, and no second
 * launch; a single token's pairs go straight from its routing row to single-column GEMVs, with no
 * grouping launch either). Nothing depends on the routing on the host, and the grids are sized by the
 * pair count alone, so a captured graph serves every routing; a grid row strides
 * over the groups, so absent groups cost no blocks. With {@code tensorCores} the wider groups take up
 * to {@code LS_MMQ_COLS} columns and run the int8 tensor-core products ({@code ls_mmq_ex_*}): a
 * prompt's or a large batch's pairs of one expert read its rows once.
 *
 * @param xFirst   the activation row of token 0 (when not {@code xPerPair})
 * @param xPerPair whether pair {@code p} reads row {@code p} (an expert's hidden rows) rather than its token's
 * @param xRows    rows of {@code x} to round (every row a pair reads)
 * @param tensorCores whether the wider groups run {@code ls_mmq_ex_*} (see {@link #of})
 * @param prequantized the operation before it already wrote x's Q8_0 form to the scratch
 */
record ExpertMatmul(
        GpuWeight weight,
        GpuActivations routing,
        int tokens,
        int xFirst,
        boolean xPerPair,
        GpuActivations x,
        int xRows,
        GpuActivations out,
        boolean tensorCores,
        boolean prequantized)
        implements DeviceOp {

    /**
     * The product on the kernels the options and the device allow: the int8 tensor-core ones for the
     * wider groups where every segment is Q4_0 or Q8_0, the device has them and the options neither
     * turn them off ({@link GpuOptions#expertTensorCores()}) nor ask for batch invariance.
     */
    static ExpertMatmul of(
            GpuWeight weight,
            GpuActivations routing,
            int tokens,
            int xFirst,
            boolean xPerPair,
            GpuActivations x,
            int xRows,
            GpuActivations out,
            GpuOptions options,
            boolean int8TensorCores) {
        boolean tensorCores = int8TensorCores
                && options.expertTensorCores()
                && !options.batchInvariant()
                && weight.cols() % LS_QK == 0
                && weight.everySegment(s -> s.band().format().expertTensorCoreKernel() != null);
        return new ExpertMatmul(weight, routing, tokens, xFirst, xPerPair, x, xRows, out, tensorCores, false);
    }

    /** Whether every segment multiplies int8 activations, which a SwiGLU before it can write. */
    boolean takesQ8() {
        return weight.cols() % LS_QK == 0
                && weight.everySegment(s -> Matmul.expertGemvRounding(s.band()) == Matmul.Prepared.Q8_0_INT);
    }

    ExpertMatmul afterQuantizingProducer() {
        return new ExpertMatmul(weight, routing, tokens, xFirst, xPerPair, x, xRows, out, tensorCores, true);
    }

    /** Ints per one-column group. */
    static final int SINGLE_INTS = 4;

    /** The most columns of a wider group. */
    int groupColumns() {
        return tensorCores ? LS_MMQ_COLS : LS_MMV_MAX_COLS;
    }

    /** Ints per wider group. */
    private int multiInts() {
        return 2 + 2 * groupColumns();
    }

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
        w.reserve(Slot.EXPERT_MULTIS, (1L + (long) multiSlots() * multiInts()) * Integer.BYTES);
        int k = weight.cols();
        for (GpuWeight.Segment s : weight.segments()) {
            switch (Matmul.expertGemvRounding(s.band())) {
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
        if (direct()) {
            launchProducts(l);
            return;
        }
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
                        .i32(singlesOnly(l.options()) ? 1 : groupColumns()));
        launchProducts(l);
    }

    /**
     * Whether the single-column GEMVs read one token's pairs straight from its routing row
     * ({@code LS_MMV_GROUPS} with no group table), which saves the grouping launch.
     */
    private boolean direct() {
        return tokens == 1;
    }

    private void launchProducts(Launch l) {
        int k = weight.cols();
        Matmul.Prepared prepared = prequantized ? Matmul.Prepared.Q8_0_INT : Matmul.Prepared.NONE;
        for (GpuWeight.Segment s : weight.segments()) {
            Matmul.Prepared wanted = Matmul.expertGemvRounding(s.band());
            if (wanted != Matmul.Prepared.NONE && wanted != prepared) {
                Matmul.prepare(l, x, xRows, k, wanted);
                prepared = wanted;
            }
            launch(l, s, 1, Slot.EXPERT_SINGLES, pairs(), wanted);
            if (singlesOnly(l.options())) {
                continue;
            } else if (tensorCores) {
                launchTensorCores(l, s);
            } else {
                launch(l, s, LS_MMV_MAX_COLS, Slot.EXPERT_MULTIS, multiSlots(), wanted);
            }
        }
    }

    /**
     * Whether every pair goes in a group of its own: under batch invariance (each computed as if
     * alone), and for one token, whose pairs share an expert only when a routing repeats one (then
     * read twice) and where the wider groups' launches would find nothing to do.
     */
    private boolean singlesOnly(GpuOptions options) {
        return options.batchInvariant() || tokens == 1;
    }

    private void launch(Launch l, GpuWeight.Segment s, int columns, Slot groups, int slots, Matmul.Prepared rounding) {
        GpuWeight.Band band = s.band();
        int k = weight.cols();
        int rows = s.rowsPerExpert();
        int blockRows = band.format().expertGemvRows(columns);
        int gridRows = Math.min(slots, MAX_GRID_ROWS);
        LaunchConfig grid = new LaunchConfig((rows + blockRows - 1) / blockRows, gridRows, 1, LS_MMV_THREADS, 1, 1, 0);
        KernelArgs args = KernelArgs.of().pointer(band.data()).pointer(band.data(), band.scalesOffset());
        switch (rounding) {
            case Q8_0_INT -> l.q8(args, 0, k);
            case NONE -> args.pointer(x.buffer);
            default -> args.pointer(l.scratch(Slot.XF));
        }
        args.pointer(out.buffer, (long) s.outCol() * Float.BYTES);
        if (direct()) {
            args.nullPointer();
        } else {
            args.pointer(l.scratch(groups));
        }
        args.i64(s.firstRow()).i32(rows).i32(k).i32(out.cols()).i32(gridRows);
        args.pointer(routing.buffer).i32(used()).i32(xFirst).i32(xPerPair ? 1 : 0);
        l.kernel(band.format().expertGemvKernel(columns, k), grid, args);
    }

    /** The wider groups of segment {@code s} through {@code ls_mmq_ex_*}, a block per 64 rows and grid row. */
    private void launchTensorCores(Launch l, GpuWeight.Segment s) {
        GpuWeight.Band band = s.band();
        int rows = s.rowsPerExpert();
        int gridRows = Math.min(multiSlots(), MAX_GRID_ROWS);
        l.kernel(
                band.format().expertTensorCoreKernel(),
                new LaunchConfig((rows + LS_MMQ_ROWS - 1) / LS_MMQ_ROWS, gridRows, 1, LS_MMQ_THREADS, 1, 1, 0),
                KernelArgs.of()
                        .pointer(band.data())
                        .pointer(band.data(), band.scalesOffset())
                        .pointer(l.scratch(Slot.XQ))
                        .pointer(l.scratch(Slot.XD))
                        .pointer(out.buffer, (long) s.outCol() * Float.BYTES)
                        .pointer(l.scratch(Slot.EXPERT_MULTIS))
                        .i64(s.firstRow())
                        .i32(rows)
                        .i32(weight.cols())
                        .i32(out.cols())
                        .i32(gridRows));
    }

    @Override
    public long weightBytes() {
        return weight.byteSize();
    }

    @Override
    public String profileKey() {
        return "expertMatmul " + weight.rows() + "x" + weight.cols() + " of " + weight.experts() + " pairs=" + pairs()
                + (tensorCores ? " mmq" : "");
    }
}
