package com.llmserve.engine.backend.cpu;

import static com.llmserve.engine.backend.cpu.Simd.F;
import static com.llmserve.engine.backend.cpu.Simd.L;

import jdk.incubator.vector.FloatVector;

/**
 * The register-blocked kernel behind batched matrix multiplication: a tile of {@link #ROWS} weight
 * rows, dequantized once into element-major order ({@code tile[k * ROWS + i]} is element {@code k}
 * of row {@code i}), multiplied with many tokens. Each step loads two weight vectors and broadcasts
 * eight activations (four, or one, for the last tokens) into sixteen accumulators, so the FMA
 * units, not the conversions or memory, set the pace; the tile (128 KiB) stays in L2 however many
 * tokens pass. For a given row and token the sum over {@code k} runs in the same order whatever
 * the batch size and whichever block takes the token.
 *
 * <p>(A row-major tile with vector dot products avoids the transposition but streams all tokens'
 * activations per group of rows, which outgrows L2 at a few hundred tokens: measured slower.)
 */
final class TileGemm {

    /** Rows per tile: two float vectors. */
    static final int ROWS = 2 * L;
    /** Tokens per register block. */
    private static final int TOKENS = 4;
    /** Tokens per wide register block, whose activations come interleaved ({@link #interleaveOctets}). */
    static final int OCTET = 8;
    /**
     * Columns dequantized at a time: a 32-row tile of 1024 floats is 128 KiB, which stays in L2
     * together with the activations it meets. A multiple of every block size (256).
     */
    static final int K_CHUNK = 1024;

    private TileGemm() {}

    /**
     * {@code y[t*yStride + yCol + i] (+)= sum_k tile[k*ROWS + i] * x[t*xStride + xCol + k]} for
     * {@code i < rows}, {@code k < width}, {@code t < tokens}; adds to {@code y} when {@code accumulate}.
     *
     * @param octets {@code x} as {@link #interleaveOctets} lays it out, or null
     */
    static void multiply(
            float[] tile,
            int width,
            int rows,
            float[] x,
            float[] octets,
            int xStride,
            int xCol,
            int tokens,
            float[] y,
            int yStride,
            int yCol,
            boolean accumulate) {
        int t = 0;
        if (rows == ROWS && octets != null) {
            for (; t + OCTET <= tokens; t += OCTET) {
                block8(
                        tile,
                        width,
                        octets,
                        t / OCTET * xStride * OCTET + xCol * OCTET,
                        t,
                        y,
                        yStride,
                        yCol,
                        accumulate);
            }
        }
        for (; t + TOKENS <= tokens; t += TOKENS) {
            block4(tile, width, rows, x, xStride, xCol, t, y, yStride, yCol, accumulate);
        }
        for (; t < tokens; t++) {
            block1(tile, width, rows, x, t * xStride + xCol, y, t * yStride + yCol, accumulate);
        }
    }

    private static void block4(
            float[] tile,
            int width,
            int rows,
            float[] x,
            int xStride,
            int xCol,
            int t,
            float[] y,
            int yStride,
            int yCol,
            boolean accumulate) {
        FloatVector a0 = FloatVector.zero(F), b0 = FloatVector.zero(F);
        FloatVector a1 = FloatVector.zero(F), b1 = FloatVector.zero(F);
        FloatVector a2 = FloatVector.zero(F), b2 = FloatVector.zero(F);
        FloatVector a3 = FloatVector.zero(F), b3 = FloatVector.zero(F);
        int x0 = t * xStride + xCol;
        int x1 = x0 + xStride;
        int x2 = x1 + xStride;
        int x3 = x2 + xStride;
        for (int k = 0, w = 0; k < width; k++, w += ROWS) {
            FloatVector lo = FloatVector.fromArray(F, tile, w);
            FloatVector hi = FloatVector.fromArray(F, tile, w + L);
            FloatVector v = FloatVector.broadcast(F, x[x0 + k]);
            a0 = lo.fma(v, a0);
            b0 = hi.fma(v, b0);
            v = FloatVector.broadcast(F, x[x1 + k]);
            a1 = lo.fma(v, a1);
            b1 = hi.fma(v, b1);
            v = FloatVector.broadcast(F, x[x2 + k]);
            a2 = lo.fma(v, a2);
            b2 = hi.fma(v, b2);
            v = FloatVector.broadcast(F, x[x3 + k]);
            a3 = lo.fma(v, a3);
            b3 = hi.fma(v, b3);
        }
        store(a0, b0, rows, y, t * yStride + yCol, accumulate);
        store(a1, b1, rows, y, (t + 1) * yStride + yCol, accumulate);
        store(a2, b2, rows, y, (t + 2) * yStride + yCol, accumulate);
        store(a3, b3, rows, y, (t + 3) * yStride + yCol, accumulate);
    }

    /**
     * Copies the rows of octets {@code [from, to)} of {@code x} ({@code cols} wide) so that each run
     * of 8 tokens is element-major: {@code out[(t/8)*cols*8 + k*8 + t%8] = x[t*cols + k]}. The
     * 8-token kernel then broadcasts its activations from one cache line per element rather than
     * from 8 rows a row's length apart, which left it short of registers for their addresses.
     */
    static void interleaveOctets(float[] x, int cols, float[] out, int from, int to) {
        for (int b = from; b < to; b++) {
            int o = b * cols * OCTET;
            for (int j = 0; j < OCTET; j++) {
                int src = (b * OCTET + j) * cols;
                for (int k = 0; k < cols; k++) {
                    out[o + k * OCTET + j] = x[src + k];
                }
            }
        }
    }

    private static void block8(
            float[] tile, int width, float[] x, int x0, int t, float[] y, int yStride, int yCol, boolean accumulate) {
        FloatVector a0 = FloatVector.zero(F), b0 = FloatVector.zero(F);
        FloatVector a1 = FloatVector.zero(F), b1 = FloatVector.zero(F);
        FloatVector a2 = FloatVector.zero(F), b2 = FloatVector.zero(F);
        FloatVector a3 = FloatVector.zero(F), b3 = FloatVector.zero(F);
        FloatVector a4 = FloatVector.zero(F), b4 = FloatVector.zero(F);
        FloatVector a5 = FloatVector.zero(F), b5 = FloatVector.zero(F);
        FloatVector a6 = FloatVector.zero(F), b6 = FloatVector.zero(F);
        FloatVector a7 = FloatVector.zero(F), b7 = FloatVector.zero(F);
        for (int k = 0, w = 0; k < width; k++, w += ROWS) {
            FloatVector lo = FloatVector.fromArray(F, tile, w);
            FloatVector hi = FloatVector.fromArray(F, tile, w + L);
            int xk = x0 + OCTET * k;
            FloatVector v = FloatVector.broadcast(F, x[xk]);
            a0 = lo.fma(v, a0);
            b0 = hi.fma(v, b0);
            v = FloatVector.broadcast(F, x[xk + 1]);
            a1 = lo.fma(v, a1);
            b1 = hi.fma(v, b1);
            v = FloatVector.broadcast(F, x[xk + 2]);
            a2 = lo.fma(v, a2);
            b2 = hi.fma(v, b2);
            v = FloatVector.broadcast(F, x[xk + 3]);
            a3 = lo.fma(v, a3);
            b3 = hi.fma(v, b3);
            v = FloatVector.broadcast(F, x[xk + 4]);
            a4 = lo.fma(v, a4);
            b4 = hi.fma(v, b4);
            v = FloatVector.broadcast(F, x[xk + 5]);
            a5 = lo.fma(v, a5);
            b5 = hi.fma(v, b5);
            v = FloatVector.broadcast(F, x[xk + 6]);
            a6 = lo.fma(v, a6);
            b6 = hi.fma(v, b6);
            v = FloatVector.broadcast(F, x[xk + 7]);
            a7 = lo.fma(v, a7);
            b7 = hi.fma(v, b7);
        }
        // stored here rather than through a helper: C2 stops inlining calls in a method this large,
        // and a call after the loop would box the accumulators inside it
        int at = t * yStride + yCol;
        if (accumulate) {
            a0 = a0.add(FloatVector.fromArray(F, y, at));
            b0 = b0.add(FloatVector.fromArray(F, y, at + L));
            a1 = a1.add(FloatVector.fromArray(F, y, at + yStride));
            b1 = b1.add(FloatVector.fromArray(F, y, at + yStride + L));
            a2 = a2.add(FloatVector.fromArray(F, y, at + 2 * yStride));
            b2 = b2.add(FloatVector.fromArray(F, y, at + 2 * yStride + L));
            a3 = a3.add(FloatVector.fromArray(F, y, at + 3 * yStride));
            b3 = b3.add(FloatVector.fromArray(F, y, at + 3 * yStride + L));
            a4 = a4.add(FloatVector.fromArray(F, y, at + 4 * yStride));
            b4 = b4.add(FloatVector.fromArray(F, y, at + 4 * yStride + L));
            a5 = a5.add(FloatVector.fromArray(F, y, at + 5 * yStride));
            b5 = b5.add(FloatVector.fromArray(F, y, at + 5 * yStride + L));
            a6 = a6.add(FloatVector.fromArray(F, y, at + 6 * yStride));
            b6 = b6.add(FloatVector.fromArray(F, y, at + 6 * yStride + L));
            a7 = a7.add(FloatVector.fromArray(F, y, at + 7 * yStride));
            b7 = b7.add(FloatVector.fromArray(F, y, at + 7 * yStride + L));
        }
        a0.intoArray(y, at);
        b0.intoArray(y, at + L);
        a1.intoArray(y, at + yStride);
        b1.intoArray(y, at + yStride + L);
        a2.intoArray(y, at + 2 * yStride);
        b2.intoArray(y, at + 2 * yStride + L);
        a3.intoArray(y, at + 3 * yStride);
        b3.intoArray(y, at + 3 * yStride + L);
        a4.intoArray(y, at + 4 * yStride);
        b4.intoArray(y, at + 4 * yStride + L);
        a5.intoArray(y, at + 5 * yStride);
        b5.intoArray(y, at + 5 * yStride + L);
        a6.intoArray(y, at + 6 * yStride);
        b6.intoArray(y, at + 6 * yStride + L);
        a7.intoArray(y, at + 7 * yStride);
        b7.intoArray(y, at + 7 * yStride + L);
    }

    private static void block1(
            float[] tile, int width, int rows, float[] x, int xo, float[] y, int yo, boolean accumulate) {
        FloatVector a = FloatVector.zero(F);
        FloatVector b = FloatVector.zero(F);
        for (int k = 0, w = 0; k < width; k++, w += ROWS) {
            FloatVector v = FloatVector.broadcast(F, x[xo + k]);
            a = FloatVector.fromArray(F, tile, w).fma(v, a);
            b = FloatVector.fromArray(F, tile, w + L).fma(v, b);
        }
        store(a, b, rows, y, yo, accumulate);
    }

    private static void store(FloatVector lo, FloatVector hi, int rows, float[] y, int at, boolean accumulate) {
        if (rows == ROWS) {
            if (accumulate) {
                lo = lo.add(FloatVector.fromArray(F, y, at));
                hi = hi.add(FloatVector.fromArray(F, y, at + L));
            }
            lo.intoArray(y, at);
            hi.intoArray(y, at + L);
            return;
        }
        float[] lanes = new float[ROWS];
        lo.intoArray(lanes, 0);
        hi.intoArray(lanes, L);
        for (int i = 0; i < rows; i++) {
            y[at + i] = accumulate ? y[at + i] + lanes[i] : lanes[i];
        }
    }
}
