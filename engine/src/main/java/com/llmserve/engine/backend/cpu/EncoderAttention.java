package com.llmserve.engine.backend.cpu;

import static com.llmserve.engine.backend.cpu.Simd.F;
import static com.llmserve.engine.backend.cpu.Simd.L;

import com.llmserve.engine.backend.AttentionShape;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;

/**
 * Bidirectional attention within sequence spans, float32 throughout (see
 * {@link com.llmserve.engine.backend.Backend#encoderAttention}). A work item is a block of up to
 * {@link #ROWS} rows of one sequence and one kv head. The head's keys are first copied transposed
 * into the thread's scratch, so that a query's scores against {@code L} keys at a time are
 * lane-wise FMAs with no horizontal sum.
 *
 * <p>Every step is lane-wise arithmetic or scalar {@link Math#exp}, which give the same bits at
 * every JIT tier; the Vector API's {@code reduceLanes} and {@code EXP} do not (an intrinsic once
 * compiled, a different per-lane fallback before). So a vector never depends on the batch it ran
 * in nor on how warm the JVM was, and the scalar path (vector paths off) gives the same bits.
 */
final class EncoderAttention {

    /** Rows per work item: the transposed keys are reused by this many queries. */
    static final int ROWS = 32;

    private final Parallel parallel;
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);
    /** First work block of each sequence, reused between calls (one forward pass at a time). */
    private int[] firstBlock = new int[17];

    EncoderAttention(Parallel parallel) {
        this.parallel = parallel;
    }

    /** Per-thread buffers: one kv head's keys of a sequence, transposed and padded to whole vectors, and a row of scores. */
    private static final class Scratch {
        float[] keys = new float[0];
        float[] scores = new float[0];
    }

    /**
     * @param in      fused q|k|v rows of {@code stride} floats
     * @param starts  {@code sequences + 1} ascending row offsets, already checked
     * @param out     rows of {@code shape.queryDim()} floats
     */
    void run(float[] in, int stride, int[] starts, int sequences, AttentionShape shape, float[] out) {
        if (firstBlock.length < sequences + 1) {
            firstBlock = new int[Math.max(sequences + 1, 2 * firstBlock.length)];
        }
        int[] blocks = firstBlock;
        for (int s = 0; s < sequences; s++) {
            blocks[s + 1] = blocks[s] + (starts[s + 1] - starts[s] + ROWS - 1) / ROWS;
        }
        int kvHeads = shape.kvHeads();
        parallel.forEach(blocks[sequences] * kvHeads, 1, (from, to) -> {
            for (int item = from; item < to; item++) {
                int block = item / kvHeads;
                int seq = CpuBackend.spanOf(blocks, sequences, block);
                int rowFrom = starts[seq] + (block - blocks[seq]) * ROWS;
                int rowTo = Math.min(starts[seq + 1], rowFrom + ROWS);
                attend(
                        in,
                        stride,
                        starts[seq],
                        starts[seq + 1] - starts[seq],
                        rowFrom,
                        rowTo,
                        item % kvHeads,
                        shape,
                        out);
            }
        });
    }

    /** Rows {@code [rowFrom, rowTo)} of the sequence at {@code first} ({@code count} rows), the query heads of kv head {@code kvh}. */
    private void attend(
            float[] in,
            int stride,
            int first,
            int count,
            int rowFrom,
            int rowTo,
            int kvh,
            AttentionShape shape,
            float[] out) {
        int hd = shape.headDim();
        int group = shape.heads() / shape.kvHeads();
        int width = (count + L - 1) / L * L;
        Scratch sc = scratch(hd * width, width);
        float[] keys = sc.keys;
        float[] scores = sc.scores;
        int keyCol = shape.keyCol() + kvh * hd;
        int valueCol = shape.valueCol() + kvh * hd;
        for (int j = 0; j < count; j++) {
            int k = (first + j) * stride + keyCol;
            for (int i = 0; i < hd; i++) {
                keys[i * width + j] = in[k + i];
            }
        }
        int outStride = shape.queryDim();
        for (int t = rowFrom; t < rowTo; t++) {
            for (int g = 0; g < group; g++) {
                int head = kvh * group + g;
                scores(in, t * stride + head * hd, keys, width, count, hd, shape.scale(), scores);
                FloatMath.softmax(scores, 0, count);
                int o = t * outStride + head * hd;
                Arrays.fill(out, o, o + hd, 0f);
                for (int j = 0; j < count; j++) {
                    weightedAdd(scores[j], in, (first + j) * stride + valueCol, out, o, hd);
                }
            }
        }
    }

    /** {@code scores[j] = scale * sum_i q[i] * keys[i][j]} for {@code j < count}, summed over {@code i} in order with FMAs. */
    private static void scores(
            float[] in, int q, float[] keys, int width, int count, int hd, float scale, float[] scores) {
        if (Simd.ENABLED) {
            for (int j = 0; j < count; j += L) {
                FloatVector acc = FloatVector.zero(F);
                for (int i = 0; i < hd; i++) {
                    acc = FloatVector.fromArray(F, keys, i * width + j).fma(FloatVector.broadcast(F, in[q + i]), acc);
                }
                acc.mul(scale).intoArray(scores, j);
            }
            return;
        }
        for (int j = 0; j < count; j++) {
            float acc = 0f;
            for (int i = 0; i < hd; i++) {
                acc = Math.fma(keys[i * width + j], in[q + i], acc);
            }
            scores[j] = acc * scale;
        }
    }

    /** {@code y[yo..yo+n) += p * v[vo..vo+n)} with FMAs, lane by lane in either path. */
    private static void weightedAdd(float p, float[] v, int vo, float[] y, int yo, int n) {
        int i = 0;
        if (Simd.ENABLED) {
            FloatVector a = FloatVector.broadcast(F, p);
            for (; i + L <= n; i += L) {
                FloatVector.fromArray(F, v, vo + i)
                        .fma(a, FloatVector.fromArray(F, y, yo + i))
                        .intoArray(y, yo + i);
            }
        }
        for (; i < n; i++) {
            y[yo + i] = Math.fma(v[vo + i], p, y[yo + i]);
        }
    }

    private Scratch scratch(int keys, int scores) {
        Scratch s = scratch.get();
        if (s.keys.length < keys) {
            s.keys = new float[Math.max(keys, 2 * s.keys.length)];
        }
        if (s.scores.length < scores) {
            s.scores = new float[Math.max(scores, 2 * s.scores.length)];
        }
        return s;
    }
}
