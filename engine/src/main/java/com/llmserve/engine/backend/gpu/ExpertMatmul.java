package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_MMV_MAX_COLS;
import static com.llmserve.kernels.KernelConstants.LS_MMV_THREADS;
import static com.llmserve.kernels.KernelConstants.LS_QK;

import com.llmserve.engine.backend.gpu.Scratch.Slot;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;

/**
 * {@code out[p] = W[expert[p]] x[xRow[p]]} over a mixture's stacked experts: per stack segment,
 * the activations rounded as the segment's type wants (once per rounding), then two grouped GEMV
 * launches, one over the groups of a single column and one over the groups of two to
 * {@code LS_MMV_MAX_COLS}, each group one expert read once for its columns. The groups sit in the
 * step's int region ({@code (expert, columns, then x row and out row per column)}), the grids are
 * sized by the pair count alone, so a captured graph serves any routing of the same pairs.
 *
 * @param xRows  rows of {@code x} to round (every row a pair reads)
 * @param singles where the one-column groups start in the int region; {@code pairs} slots of 4 ints
 * @param multis  where the wider groups start; {@code pairs / 2} slots of {@code 2 + 2 * LS_MMV_MAX_COLS} ints
 */
record ExpertMatmul(
        GpuWeight weight, GpuActivations x, int xRows, int pairs, int singles, int multis, GpuActivations out)
        implements DeviceOp {

    /** Ints per one-column group. */
    static final int SINGLE_INTS = 4;

    /** Ints per wider group. */
    static final int MULTI_INTS = 2 + 2 * LS_MMV_MAX_COLS;

    /** Wider groups a step of {@code pairs} pairs can have (each has two columns at least). */
    static int multiSlots(int pairs) {
        return Math.max(1, pairs / 2);
    }

    /**
     * The groups of {@code pairs} pairs: pairs of one expert, {@code LS_MMV_MAX_COLS} at most per
     * group; a pair's out row is its index. Unused slots stay zero (no columns).
     *
     * @return {@code [singles, multis]}, the int contents of both regions
     */
    static int[][] groups(int[] expert, int[] xRow, int pairs, int experts) {
        int[][] byExpert = new int[experts][];
        int[] count = new int[experts];
        for (int p = 0; p < pairs; p++) {
            count[expert[p]]++;
        }
        for (int e = 0; e < experts; e++) {
            byExpert[e] = new int[count[e]];
            count[e] = 0;
        }
        for (int p = 0; p < pairs; p++) {
            byExpert[expert[p]][count[expert[p]]++] = p;
        }
        int[] singles = new int[pairs * SINGLE_INTS];
        int[] multis = new int[multiSlots(pairs) * MULTI_INTS];
        int s = 0;
        int m = 0;
        for (int e = 0; e < experts; e++) {
            int[] mine = byExpert[e];
            for (int from = 0; from < mine.length; from += LS_MMV_MAX_COLS) {
                int columns = Math.min(LS_MMV_MAX_COLS, mine.length - from);
                int[] region = columns == 1 ? singles : multis;
                int at = columns == 1 ? s++ * SINGLE_INTS : m++ * MULTI_INTS;
                region[at] = e;
                region[at + 1] = columns;
                for (int c = 0; c < columns; c++) {
                    int p = mine[from + c];
                    region[at + 2 + 2 * c] = xRow[p];
                    region[at + 3 + 2 * c] = p;
                }
            }
        }
        return new int[][] {singles, multis};
    }

    @Override
    public int n() {
        return pairs;
    }

    @Override
    public void reserve(Workspace w) {
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
        int k = weight.cols();
        Matmul.Prepared prepared = Matmul.Prepared.NONE;
        for (GpuWeight.Segment s : weight.segments()) {
            GpuWeight.Band band = s.band();
            Matmul.Prepared wanted = Matmul.gemvRounding(band);
            if (wanted != Matmul.Prepared.NONE && wanted != prepared) {
                Matmul.prepare(l, x, xRows, k, wanted);
                prepared = wanted;
            }
            launch(l, s, 1, singles, pairs, wanted);
            launch(l, s, LS_MMV_MAX_COLS, multis, multiSlots(pairs), wanted);
        }
    }

    private void launch(Launch l, GpuWeight.Segment s, int columns, int groups, int slots, Matmul.Prepared rounding) {
        GpuWeight.Band band = s.band();
        int k = weight.cols();
        int rows = s.rowsPerExpert();
        int blockRows = Matmul.gemvRows(columns);
        LaunchConfig grid = new LaunchConfig((rows + blockRows - 1) / blockRows, slots, 1, LS_MMV_THREADS, 1, 1, 0);
        KernelArgs args = KernelArgs.of().pointer(band.data()).pointer(band.data(), band.scalesOffset());
        switch (rounding) {
            case Q8_0_INT -> l.q8(args, 0, k);
            case NONE -> args.pointer(x.buffer);
            default -> args.pointer(l.scratch(Slot.XF));
        }
        args.pointer(out.buffer, (long) s.outCol() * Float.BYTES);
        l.ints(args, groups).i64(s.firstRow()).i32(rows).i32(k).i32(out.cols());
        l.kernel(band.format().expertGemvKernel(columns), grid, args);
    }

    @Override
    public long weightBytes() {
        return weight.byteSize();
    }

    @Override
    public String profileKey() {
        return "expertMatmul " + weight.rows() + "x" + weight.cols() + " of " + weight.experts() + " pairs=" + pairs;
    }
}
