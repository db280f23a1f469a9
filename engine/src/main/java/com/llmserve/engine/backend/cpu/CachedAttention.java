package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Batch;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Attention over the paged KV cache (see {@link com.llmserve.engine.backend.Backend#attention}),
 * rounding as llama.cpp does with its F16 cache: keys and values are stored as halves, the query
 * is rounded to half before q·k, and the softmax weights to half before they scale the values;
 * sums stay in float. Per-head attention sinks (gpt-oss) add {@code exp(sink - max)} to each
 * softmax's denominator.
 *
 * <p>With a Q8_0 cache ({@link Q8Kv}) the rows' keys and values are quantized when stored, and
 * the run dequantizes them ({@code q * d}) instead of widening halves; the arithmetic after that
 * is the same.
 *
 * <p>A work item is a run of up to {@link #RUN_ROWS} consecutive rows of one sequence and one kv
 * head. With the native kernels and an F16 cache, each row's scores and weighted values are
 * computed straight from the cached halves ({@link NativeKernels#attentionScores},
 * {@link NativeKernels#attentionValues}); otherwise the run widens its cached keys and values to
 * floats a block of positions at a time, once for all its rows and query heads. Either way each
 * row's arithmetic is what it would be alone, so a row's result does not depend on the batch it
 * ran in.
 */
final class CachedAttention {

    /** Positions whose keys or values are widened to floats at a time: 16 KiB of a 64-dim head. */
    private static final int POSITION_BLOCK = 64;
    /** The most rows one work item takes, and the most scores it keeps (floats). */
    private static final int RUN_ROWS = 16;

    private static final int RUN_SCORES = 1 << 20;

    private final Parallel parallel;
    /** Widens blocks of cached rows in one call when present (decode spent ~12% of its time widening). */
    private final NativeKernels kernels;

    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

    CachedAttention(Parallel parallel) {
        this(parallel, null);
    }

    CachedAttention(Parallel parallel, NativeKernels kernels) {
        this.parallel = parallel;
        this.kernels = kernels;
    }

    /** Stores the rows' keys and values in {@code layer}'s cache, then attends; shapes already checked. */
    void run(
            CpuActivations in,
            CpuKvStorage cache,
            int layer,
            Batch batch,
            int n,
            AttentionShape shape,
            CpuActivations o) {
        int kvDim = shape.kvDim();
        MemorySegment keys = cache.keys[layer];
        MemorySegment values = cache.values[layer];
        MemorySegment keyScales = cache.keyScales == null ? null : cache.keyScales[layer];
        MemorySegment valueScales = cache.valueScales == null ? null : cache.valueScales[layer];
        int kvGroup = cache.groupOf(layer);
        parallel.forEach(n, CpuBackend.ROWS_PER_TASK, (from, to) -> {
            for (int t = from; t < to; t++) {
                if (keyScales != null) {
                    long slot = batch.slotOfRow(kvGroup, t);
                    int row = t * in.cols();
                    long blocks = slot * (kvDim / Q8Kv.BLOCK);
                    Q8Kv.quantize(in.data, row + shape.keyCol(), kvDim, keys, slot * kvDim, keyScales, blocks);
                    Q8Kv.quantize(in.data, row + shape.valueCol(), kvDim, values, slot * kvDim, valueScales, blocks);
                    continue;
                }
                long slot = (long) batch.slotOfRow(kvGroup, t) * kvDim;
                int row = t * in.cols();
                for (int i = 0; i < kvDim; i++) {
                    keys.setAtIndex(
                            ValueLayout.JAVA_SHORT, slot + i, Float.floatToFloat16(in.data[row + shape.keyCol() + i]));
                    values.setAtIndex(
                            ValueLayout.JAVA_SHORT,
                            slot + i,
                            Float.floatToFloat16(in.data[row + shape.valueCol() + i]));
                }
            }
        });
        int[] lastPosition = shape.causal() ? null : lastPositions(batch, n);
        int[] runs = rowRuns(batch, n, shape);
        parallel.forEach((runs.length - 1) * shape.kvHeads(), 1, (from, to) -> {
            for (int item = from; item < to; item++) {
                int r = item / shape.kvHeads();
                attendRun(
                        in,
                        o,
                        keys,
                        values,
                        keyScales,
                        valueScales,
                        batch,
                        kvGroup,
                        runs[r],
                        runs[r + 1],
                        item % shape.kvHeads(),
                        shape,
                        lastPosition);
            }
        });
    }

    /** Starts of runs of consecutive rows of one sequence, ending with {@code n}. */
    private static int[] rowRuns(Batch batch, int n, AttentionShape shape) {
        int[] starts = new int[n + 1];
        int runs = 0;
        int group = shape.heads() / shape.kvHeads();
        for (int t = 0; t < n; ) {
            starts[runs++] = t;
            int seq = batch.sequenceOf(t);
            int rows = Math.max(1, Math.min(RUN_ROWS, RUN_SCORES / (group * (batch.position(t) + 1))));
            int end = t + 1;
            while (end < n && end - t < rows && batch.sequenceOf(end) == seq) {
                end++;
            }
            t = end;
        }
        starts[runs] = n;
        return Arrays.copyOf(starts, runs + 1);
    }

    /**
     * Attention of rows {@code [t0, t1)} (one sequence) for kv head {@code kvh}: per row, its query
     * is rounded to half, its scores are dot products with the widened keys
     * ({@link FloatMath#dots}), its weights are rounded to half and scale the widened values in
     * position order ({@link FloatMath#weightedSum}).
     */
    private void attendRun(
            CpuActivations in,
            CpuActivations o,
            MemorySegment keys,
            MemorySegment values,
            MemorySegment keyScales,
            MemorySegment valueScales,
            Batch batch,
            int kvGroup,
            int t0,
            int t1,
            int kvh,
            AttentionShape shape,
            int[] lastPosition) {
        int hd = shape.headDim();
        int kvDim = shape.kvDim();
        int group = shape.heads() / shape.kvHeads();
        int rows = t1 - t0;
        int seq = batch.sequenceOf(t0);
        Scratch sc = scratch.get();
        sc.ensureRows(rows, group * hd, POSITION_BLOCK * hd);
        int lo = Integer.MAX_VALUE;
        int hi = -1;
        int scoreCount = 0;
        for (int r = 0; r < rows; r++) {
            int pos = batch.position(t0 + r);
            int last = shape.causal() ? pos : lastPosition[seq];
            int first = shape.slidingWindow() > 0 ? Math.max(0, pos - shape.slidingWindow() + 1) : 0;
            sc.first[r] = first;
            sc.count[r] = last - first + 1;
            sc.scoreAt[r] = scoreCount;
            scoreCount += group * sc.count[r];
            lo = Math.min(lo, first);
            hi = Math.max(hi, last);
            int qBase = (t0 + r) * in.cols() + kvh * group * hd;
            for (int i = 0; i < group * hd; i++) {
                sc.query[r * group * hd + i] = Float.float16ToFloat(Float.floatToFloat16(in.data[qBase + i]));
            }
        }
        sc.ensureScores(scoreCount);
        int kvOff = kvh * hd;
        if (kernels != null && valueScales == null && kernels.attends(hd)) {
            attendOnHalves(o, keys, values, batch, kvGroup, seq, t0, rows, kvh, shape, lo, hi, scoreCount, sc);
            return;
        }
        for (int pb = lo; pb <= hi; pb += POSITION_BLOCK) {
            int pe = widen(keys, keyScales, batch, kvGroup, seq, kvDim, kvOff, hd, pb, hi, sc);
            for (int r = 0; r < rows; r++) {
                int from = Math.max(pb, sc.first[r]);
                int to = Math.min(pe, sc.first[r] + sc.count[r]);
                for (int g = 0; g < group && from < to; g++) {
                    FloatMath.dots(
                            sc.query,
                            (r * group + g) * hd,
                            sc.rows,
                            (from - pb) * hd,
                            hd,
                            to - from,
                            hd,
                            shape.cappedScale(),
                            sc.scores,
                            sc.scoreAt[r] + g * sc.count[r] + from - sc.first[r]);
                }
            }
        }
        softcap(sc.scores, scoreCount, shape);
        for (int r = 0; r < rows; r++) {
            int count = sc.count[r];
            int outBase = (t0 + r) * o.cols() + kvh * group * hd;
            Arrays.fill(o.data, outBase, outBase + group * hd, 0f);
            for (int g = 0; g < group; g++) {
                int at0 = sc.scoreAt[r] + g * count;
                float max = FloatMath.max(sc.scores, at0, count);
                float inv;
                if (shape.sinks() == null) {
                    inv = 1f / FloatMath.expMinusMax(sc.scores, at0, count, max);
                } else {
                    // a sink joins the denominator only, as ggml's flash attention folds it in
                    float sink = shape.sinks()[kvh * group + g];
                    max = Math.max(max, sink);
                    float sum = FloatMath.expMinusMax(sc.scores, at0, count, max);
                    inv = 1f / (sum + Simd.exp(sink - max));
                }
                for (int p = 0; p < count; p++) {
                    sc.scores[at0 + p] = Float.float16ToFloat(Float.floatToFloat16(sc.scores[at0 + p] * inv));
                }
            }
        }
        for (int pb = lo; pb <= hi; pb += POSITION_BLOCK) {
            int pe = widen(values, valueScales, batch, kvGroup, seq, kvDim, kvOff, hd, pb, hi, sc);
            for (int r = 0; r < rows; r++) {
                int from = Math.max(pb, sc.first[r]);
                int to = Math.min(pe, sc.first[r] + sc.count[r]);
                int outBase = (t0 + r) * o.cols() + kvh * group * hd;
                for (int g = 0; g < group && from < to; g++) {
                    FloatMath.weightedSum(
                            sc.scores,
                            sc.scoreAt[r] + g * sc.count[r] + from - sc.first[r],
                            to - from,
                            sc.rows,
                            (from - pb) * hd,
                            hd,
                            o.data,
                            outBase + g * hd,
                            hd);
                }
            }
        }
    }

    /**
     * {@link #attendRun}'s rows on the native kernels, straight from the cached halves (F16 cache):
     * per row its scores, soft-cap, softmax (weights rounded to half) and weighted values. The
     * positions' cache offsets are found once for the run, a block of consecutive slots at a time.
     */
    private void attendOnHalves(
            CpuActivations o,
            MemorySegment keys,
            MemorySegment values,
            Batch batch,
            int kvGroup,
            int seq,
            int t0,
            int rows,
            int kvh,
            AttentionShape shape,
            int lo,
            int hi,
            int scoreCount,
            Scratch sc) {
        int hd = shape.headDim();
        int group = shape.heads() / shape.kvHeads();
        long kvDim = shape.kvDim();
        sc.ensurePositions(hi - lo + 1);
        for (int p = lo; p <= hi; ) {
            long slot = batch.slot(kvGroup, seq, p);
            int end = Math.min(hi + 1, (p / batch.blockSize() + 1) * batch.blockSize());
            for (; p < end; p++, slot++) {
                sc.positions[p - lo] = slot * kvDim + (long) kvh * hd;
            }
        }
        NativeKernels.checkRows(keys, sc.positions, hi - lo + 1, hd);
        NativeKernels.checkRows(values, sc.positions, hi - lo + 1, hd);
        for (int r = 0; r < rows; r++) {
            kernels.attentionScores(
                    keys,
                    sc.positions,
                    sc.first[r] - lo,
                    sc.count[r],
                    hd,
                    sc.query,
                    r * group * hd,
                    group,
                    shape.cappedScale(),
                    sc.scores,
                    sc.scoreAt[r],
                    sc.count[r]);
        }
        softcap(sc.scores, scoreCount, shape);
        for (int r = 0; r < rows; r++) {
            int count = sc.count[r];
            int outBase = (t0 + r) * o.cols() + kvh * group * hd;
            Arrays.fill(o.data, outBase, outBase + group * hd, 0f);
            kernels.attentionSoftmax(sc.scores, sc.scoreAt[r], count, count, group, shape.sinks(), kvh * group);
            kernels.attentionValues(
                    values,
                    sc.positions,
                    sc.first[r] - lo,
                    count,
                    hd,
                    sc.scores,
                    sc.scoreAt[r],
                    count,
                    group,
                    o.data,
                    outBase);
        }
    }

    /** {@code cap * tanh(s)} of the first {@code n} scores when the shape soft-caps them. */
    private static void softcap(float[] scores, int n, AttentionShape shape) {
        if (shape.softcap() > 0) {
            float cap = shape.softcap();
            for (int i = 0; i < n; i++) {
                scores[i] = cap * (float) Math.tanh(scores[i]);
            }
        }
    }

    /**
     * Widens the cached halves (or dequantizes the Q8_0 blocks, with {@code scales}) of positions
     * {@code [pb, min(hi + 1, pb + POSITION_BLOCK))} of one kv head into {@code out}, a row of
     * {@code hd} floats per position; returns the block's end.
     */
    private int widen(
            MemorySegment cache,
            MemorySegment scales,
            Batch batch,
            int kvGroup,
            int seq,
            int kvDim,
            int kvOff,
            int hd,
            int pb,
            int hi,
            Scratch sc) {
        int pe = Math.min(hi + 1, pb + POSITION_BLOCK);
        if (scales != null && kernels != null) {
            for (int p = pb; p < pe; p++) {
                sc.offsets[p - pb] = (long) batch.slot(kvGroup, seq, p) * kvDim + kvOff;
            }
            kernels.dequantQ8Rows(cache, scales, sc.offsets, pe - pb, hd, sc.rows);
            return pe;
        }
        if (scales != null) {
            int blocksPerSlot = kvDim / Q8Kv.BLOCK;
            for (int p = pb; p < pe; p++) {
                long slot = batch.slot(kvGroup, seq, p);
                Q8Kv.dequantize(
                        cache,
                        slot * kvDim + kvOff,
                        scales,
                        slot * blocksPerSlot + kvOff / Q8Kv.BLOCK,
                        sc.rows,
                        (p - pb) * hd,
                        hd);
            }
            return pe;
        }
        if (kernels != null) {
            for (int p = pb; p < pe; p++) {
                sc.offsets[p - pb] = (long) batch.slot(kvGroup, seq, p) * kvDim + kvOff;
            }
            kernels.widenHalves(cache, sc.offsets, pe - pb, hd, sc.rows);
            return pe;
        }
        for (int p = pb; p < pe; p++) {
            FloatMath.widenHalves(
                    cache, (long) batch.slot(kvGroup, seq, p) * kvDim + kvOff, sc.rows, (p - pb) * hd, hd);
        }
        return pe;
    }

    /** Per-thread buffers of {@link #attendRun}. */
    private static final class Scratch {
        /** Rounded queries, {@code group * headDim} per row. */
        float[] query = new float[0];
        /** Widened keys or values of a block of positions. */
        float[] rows = new float[0];
        /** Where each position of a block starts in the cache, in halves. */
        final long[] offsets = new long[POSITION_BLOCK];
        /** Where each position of a run starts in the cache, in halves (the native path). */
        long[] positions = new long[0];

        float[] scores = new float[0];
        /** Per row of the run: first position, number of positions, where its scores start. */
        int[] first = new int[0];

        int[] count = new int[0];
        int[] scoreAt = new int[0];

        void ensureRows(int runRows, int queryWidth, int rowFloats) {
            if (first.length < runRows) {
                first = new int[runRows];
                count = new int[runRows];
                scoreAt = new int[runRows];
            }
            if (query.length < runRows * queryWidth) {
                query = new float[runRows * queryWidth];
            }
            if (rows.length < rowFloats) {
                rows = new float[rowFloats];
            }
        }

        void ensurePositions(int n) {
            if (positions.length < n) {
                positions = new long[Math.max(n, 2 * positions.length)];
            }
        }

        void ensureScores(int n) {
            if (scores.length < n) {
                scores = new float[Math.max(n, 2 * scores.length)];
            }
        }
    }

    /** For bidirectional attention: the last position of each sequence among the first {@code n} rows. */
    private static int[] lastPositions(Batch batch, int n) {
        int[] last = new int[batch.sequences()];
        Arrays.fill(last, -1);
        for (int t = 0; t < n; t++) {
            last[batch.sequenceOf(t)] = Math.max(last[batch.sequenceOf(t)], batch.position(t));
        }
        return last;
    }
}
