package com.llmserve.engine.backend.cpu;

import static com.llmserve.engine.backend.cpu.Simd.F;
import static com.llmserve.engine.backend.cpu.Simd.L;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/** Vectorised float-array kernels for the activation-side operations (norms, attention, activations). */
final class FloatMath {

    private FloatMath() {}

    /** {@code a[ao..ao+n) · b[bo..bo+n)}. */
    static float dot(float[] a, int ao, float[] b, int bo, int n) {
        int i = 0;
        float s = 0;
        if (Simd.ENABLED && n >= L) {
            FloatVector acc = FloatVector.zero(F);
            for (; i + L <= n; i += L) {
                acc = FloatVector.fromArray(F, a, ao + i).fma(FloatVector.fromArray(F, b, bo + i), acc);
            }
            s = Simd.sum(acc);
        }
        for (; i < n; i++) {
            s += a[ao + i] * b[bo + i];
        }
        return s;
    }

    /**
     * {@code out[oo + j] = dot(q, qo, rows, ro + j * stride, n) * scale} for {@code j < count}, with
     * the same bits as those calls. Eight rows at a time share the loads of {@code q}, and their
     * eight lane-wise sums are reduced together by {@link #pairSums}, which adds the same pairs in
     * the same tree as {@link Simd#sum}: four operations per row instead of nine.
     */
    static void dots(
            float[] q, int qo, float[] rows, int ro, int stride, int count, int n, float scale, float[] out, int oo) {
        int j = 0;
        if (Simd.ENABLED && L == 16 && n % L == 0) {
            for (; j + 8 <= count; j += 8) {
                dots8(q, qo, rows, ro + j * stride, stride, n, scale, out, oo + j);
            }
        }
        for (; j < count; j++) {
            out[oo + j] = dot(q, qo, rows, ro + j * stride, n) * scale;
        }
    }

    private static void dots8(
            float[] q, int qo, float[] rows, int ro, int stride, int n, float scale, float[] out, int oo) {
        FloatVector s0 = FloatVector.zero(F),
                s1 = FloatVector.zero(F),
                s2 = FloatVector.zero(F),
                s3 = FloatVector.zero(F);
        FloatVector s4 = FloatVector.zero(F),
                s5 = FloatVector.zero(F),
                s6 = FloatVector.zero(F),
                s7 = FloatVector.zero(F);
        for (int i = 0; i < n; i += L) {
            FloatVector a = FloatVector.fromArray(F, q, qo + i);
            int r = ro + i;
            s0 = a.fma(FloatVector.fromArray(F, rows, r), s0);
            s1 = a.fma(FloatVector.fromArray(F, rows, r + stride), s1);
            s2 = a.fma(FloatVector.fromArray(F, rows, r + 2 * stride), s2);
            s3 = a.fma(FloatVector.fromArray(F, rows, r + 3 * stride), s3);
            s4 = a.fma(FloatVector.fromArray(F, rows, r + 4 * stride), s4);
            s5 = a.fma(FloatVector.fromArray(F, rows, r + 5 * stride), s5);
            s6 = a.fma(FloatVector.fromArray(F, rows, r + 6 * stride), s6);
            s7 = a.fma(FloatVector.fromArray(F, rows, r + 7 * stride), s7);
        }
        s0 = pairSums(s0, s4, UPPER_8, SWAP_8);
        s1 = pairSums(s1, s5, UPPER_8, SWAP_8);
        s2 = pairSums(s2, s6, UPPER_8, SWAP_8);
        s3 = pairSums(s3, s7, UPPER_8, SWAP_8);
        s0 = pairSums(s0, s2, UPPER_4, SWAP_4);
        s1 = pairSums(s1, s3, UPPER_4, SWAP_4);
        s0 = pairSums(s0, s1, UPPER_2, SWAP_2);
        // the last halving adds each pair of lanes in both; row j's total is then in lanes 2j and 2j+1
        s0 = s0.add(s0.rearrange(SWAP_1));
        s0.rearrange(EVENS).mul(scale).intoArray(out, oo, FIRST_8);
    }

    /**
     * One halving step of {@link Simd#sum} for two vectors at once. The lanes come in segments of
     * {@code 2h} ({@code h} the lowest set lane of {@code upper}), each holding a partial vector of
     * {@code c} or of {@code d} indexed from the segment's start; the result holds each of
     * {@code c}'s segments halved ({@code c[i] + c[i + h]}) in the segment's lower half and each of
     * {@code d}'s in its upper half, again indexed from the start of the half.
     */
    private static FloatVector pairSums(
            FloatVector c, FloatVector d, VectorMask<Float> upper, VectorShuffle<Float> swap) {
        return c.blend(d, upper).add(d.blend(c, upper).rearrange(swap));
    }

    private static final VectorMask<Float> UPPER_8 = upperHalves(8);
    private static final VectorMask<Float> UPPER_4 = upperHalves(4);
    private static final VectorMask<Float> UPPER_2 = upperHalves(2);
    private static final VectorShuffle<Float> SWAP_8 = swapHalves(8);
    private static final VectorShuffle<Float> SWAP_4 = swapHalves(4);
    private static final VectorShuffle<Float> SWAP_2 = swapHalves(2);
    private static final VectorShuffle<Float> SWAP_1 = swapHalves(1);
    private static final VectorShuffle<Float> EVENS = VectorShuffle.fromOp(F, i -> 2 * i % L);
    private static final VectorMask<Float> FIRST_8 = F.indexInRange(0, 8);

    /** Exchanges the halves of each segment of {@code 2h} lanes (the identity where {@code h} is not below {@link Simd#L}). */
    private static VectorShuffle<Float> swapHalves(int h) {
        return VectorShuffle.fromOp(F, i -> (i ^ h) % L);
    }

    /** Lanes in the upper half of each segment of {@code 2h} lanes. */
    private static VectorMask<Float> upperHalves(int h) {
        boolean[] bits = new boolean[L];
        for (int i = 0; i < L; i++) {
            bits[i] = (i & h) != 0;
        }
        return VectorMask.fromArray(F, bits, 0);
    }

    /**
     * {@code y[yo + i] += sum_j w[wo + j] * rows[ro + j * stride + i]} for {@code i < n}, adding
     * the terms in order of {@code j} exactly as {@code count} calls of {@link #axpy} would, but
     * with the sums held in registers across the rows.
     */
    static void weightedSum(float[] w, int wo, int count, float[] rows, int ro, int stride, float[] y, int yo, int n) {
        int i = 0;
        if (Simd.ENABLED) {
            for (; i + 4 * L <= n; i += 4 * L) {
                FloatVector a0 = FloatVector.fromArray(F, y, yo + i);
                FloatVector a1 = FloatVector.fromArray(F, y, yo + i + L);
                FloatVector a2 = FloatVector.fromArray(F, y, yo + i + 2 * L);
                FloatVector a3 = FloatVector.fromArray(F, y, yo + i + 3 * L);
                for (int j = 0, r = ro + i; j < count; j++, r += stride) {
                    FloatVector a = FloatVector.broadcast(F, w[wo + j]);
                    a0 = FloatVector.fromArray(F, rows, r).fma(a, a0);
                    a1 = FloatVector.fromArray(F, rows, r + L).fma(a, a1);
                    a2 = FloatVector.fromArray(F, rows, r + 2 * L).fma(a, a2);
                    a3 = FloatVector.fromArray(F, rows, r + 3 * L).fma(a, a3);
                }
                a0.intoArray(y, yo + i);
                a1.intoArray(y, yo + i + L);
                a2.intoArray(y, yo + i + 2 * L);
                a3.intoArray(y, yo + i + 3 * L);
            }
            for (; i + L <= n; i += L) {
                FloatVector a0 = FloatVector.fromArray(F, y, yo + i);
                for (int j = 0, r = ro + i; j < count; j++, r += stride) {
                    a0 = FloatVector.fromArray(F, rows, r).fma(FloatVector.broadcast(F, w[wo + j]), a0);
                }
                a0.intoArray(y, yo + i);
            }
        }
        for (; i < n; i++) {
            float acc = y[yo + i];
            for (int j = 0; j < count; j++) {
                acc += w[wo + j] * rows[ro + j * stride + i];
            }
            y[yo + i] = acc;
        }
    }

    /** {@code y[yo..yo+n) += alpha * x[xo..xo+n)}. */
    static void axpy(float alpha, float[] x, int xo, float[] y, int yo, int n) {
        int i = 0;
        if (Simd.ENABLED) {
            FloatVector a = FloatVector.broadcast(F, alpha);
            for (; i + L <= n; i += L) {
                FloatVector.fromArray(F, x, xo + i)
                        .fma(a, FloatVector.fromArray(F, y, yo + i))
                        .intoArray(y, yo + i);
            }
        }
        for (; i < n; i++) {
            y[yo + i] += alpha * x[xo + i];
        }
    }

    /** {@code x[xo..xo+n) *= alpha}. */
    static void scale(float[] x, int xo, int n, float alpha) {
        int i = 0;
        if (Simd.ENABLED) {
            for (; i + L <= n; i += L) {
                FloatVector.fromArray(F, x, xo + i).mul(alpha).intoArray(x, xo + i);
            }
        }
        for (; i < n; i++) {
            x[xo + i] *= alpha;
        }
    }

    /** Sum of squares in double precision, as ggml's rms_norm accumulates. */
    static double sumOfSquares(float[] x, int xo, int n) {
        int i = 0;
        double s = 0;
        if (Simd.ENABLED) {
            // blocks of vector partial sums folded into a double keep the float error small
            for (; i + 8 * L <= n; i += 8 * L) {
                FloatVector acc = FloatVector.zero(F);
                for (int k = 0; k < 8 * L; k += L) {
                    FloatVector v = FloatVector.fromArray(F, x, xo + i + k);
                    acc = v.fma(v, acc);
                }
                s += Simd.sum(acc);
            }
        }
        for (; i < n; i++) {
            s += (double) x[xo + i] * x[xo + i];
        }
        return s;
    }

    static double sum(float[] x, int xo, int n) {
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += x[xo + i];
        }
        return s;
    }

    /** {@code out[i] = x[i] * inv * w[i]}. */
    static void scaleByWeight(float[] x, int xo, float inv, float[] w, float[] out, int oo, int n) {
        int i = 0;
        if (Simd.ENABLED) {
            for (; i + L <= n; i += L) {
                FloatVector.fromArray(F, x, xo + i)
                        .mul(inv)
                        .mul(FloatVector.fromArray(F, w, i))
                        .intoArray(out, oo + i);
            }
        }
        for (; i < n; i++) {
            out[oo + i] = x[xo + i] * inv * w[i];
        }
    }

    /** {@code x[xo..) += y[yo..)}. */
    static void add(float[] x, int xo, float[] y, int yo, int n) {
        int i = 0;
        if (Simd.ENABLED) {
            for (; i + L <= n; i += L) {
                FloatVector.fromArray(F, x, xo + i)
                        .add(FloatVector.fromArray(F, y, yo + i))
                        .intoArray(x, xo + i);
            }
        }
        for (; i < n; i++) {
            x[xo + i] += y[yo + i];
        }
    }

    /** {@code out[i] = silu(g[i]) * u[i]}, silu(v) = v / (1 + e^-v). */
    static void swiGlu(float[] g, int go, float[] u, int uo, float[] out, int oo, int n) {
        int i = 0;
        if (Simd.ENABLED) {
            for (; i + L <= n; i += L) {
                FloatVector v = FloatVector.fromArray(F, g, go + i);
                FloatVector silu = v.div(Simd.exp(v.neg()).add(1f));
                silu.mul(FloatVector.fromArray(F, u, uo + i)).intoArray(out, oo + i);
            }
        }
        for (; i < n; i++) {
            float v = g[go + i];
            out[oo + i] = v / (1f + Simd.exp(-v)) * u[uo + i];
        }
    }

    /** In place {@code x[off+i] = exp(x[off+i] - max)} for {@code i < n}, returning the sum. */
    static float expMinusMax(float[] x, int off, int n, float max) {
        int i = 0;
        float sum = 0;
        if (Simd.ENABLED) {
            FloatVector acc = FloatVector.zero(F);
            for (; i + L <= n; i += L) {
                FloatVector e = Simd.exp(FloatVector.fromArray(F, x, off + i).sub(max));
                e.intoArray(x, off + i);
                acc = acc.add(e);
            }
            sum = Simd.sum(acc);
        }
        for (; i < n; i++) {
            x[off + i] = Simd.exp(x[off + i] - max);
            sum += x[off + i];
        }
        return sum;
    }

    /** ggml's GELU constants, as float32 like its {@code ggml_gelu_f32}. */
    private static final float GELU_COEF_A = 0.044715f;

    private static final float SQRT_2_OVER_PI = 0.79788456080286535587989211986876f;

    /**
     * GELU in its tanh form as ggml's CPU backend computes it for float32 tensors
     * ({@code ggml_vec_gelu_f32} built with {@code GGML_GELU_FP16}, the default): inputs at or below
     * -10 give 0, at or above 10 pass through, and all others are rounded to half and looked up in a
     * table of halves. The embedding goldens were made by that kernel, and the table brings BERT
     * outputs closer to them than the formula in float does (both pass their tolerances).
     */
    static void gelu(float[] x, int off, int n) {
        float[] table = GeluTable.VALUES;
        for (int i = off; i < off + n; i++) {
            float v = x[i];
            if (v <= -10f) {
                x[i] = 0f;
            } else if (v < 10f) {
                x[i] = table[Float.floatToFloat16(v) & 0xffff];
            }
        }
    }

    /**
     * {@code out = gelu(g) * u} as ggml's {@code ggml_vec_geglu_f32}: the GELU of {@link #gelu} (the
     * table of halves; the gate itself at or above 10) times the up value.
     */
    static void geGlu(float[] g, int go, float[] u, int uo, float[] out, int oo, int n) {
        float[] table = GeluTable.VALUES;
        for (int i = 0; i < n; i++) {
            float v = g[go + i];
            float gelu = v <= -10f ? 0f : v >= 10f ? v : table[Float.floatToFloat16(v) & 0xffff];
            out[oo + i] = gelu * u[uo + i];
        }
    }

    /** The tanh form in float32, evaluated as ggml's {@code ggml_gelu_f32} does; the table's source. */
    static float geluTanh(float v) {
        return 0.5f * v * (1f + (float) Math.tanh(SQRT_2_OVER_PI * v * (1f + GELU_COEF_A * v * v)));
    }

    /** {@code VALUES[h] = half(geluTanh(float(h)))} for every half {@code h}, widened back to float (256 KiB, built on first use). */
    private static final class GeluTable {
        static final float[] VALUES = new float[1 << 16];

        static {
            for (int h = 0; h < VALUES.length; h++) {
                VALUES[h] = Float.float16ToFloat(Float.floatToFloat16(geluTanh(Float.float16ToFloat((short) h))));
            }
        }
    }

    /**
     * In place softmax of {@code x[off..off+n)} as ggml's {@code soft_max} forms it: the maximum
     * subtracted, exponentials summed in double, each scaled by the float inverse of the sum. The
     * exponentials are scalar {@link Math#exp}, which gives the same bits in every JIT tier; the
     * Vector API's {@code EXP} does not (an intrinsic when compiled, a per-lane fallback before),
     * and a result must not depend on how warm the JVM is.
     */
    static void softmax(float[] x, int off, int n) {
        float max = max(x, off, n);
        double sum = 0;
        for (int i = off; i < off + n; i++) {
            float e = (float) Math.exp(x[i] - max);
            x[i] = e;
            sum += e;
        }
        scale(x, off, n, (float) (1.0 / sum));
    }

    static float max(float[] x, int off, int n) {
        float m = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            m = Math.max(m, x[off + i]);
        }
        return m;
    }

    /** {@code out[off..off+n) = float(halves[index..index+n))}, the halves in native byte order. */
    static void widenHalves(MemorySegment halves, long index, float[] out, int off, int n) {
        int i = 0;
        if (Simd.ENABLED) {
            for (; i + L <= n; i += L) {
                F16Tensor.halfToFloat(
                                ShortVector.fromMemorySegment(HALVES, halves, 2 * (index + i), ByteOrder.nativeOrder()))
                        .intoArray(out, off + i);
            }
        }
        for (; i < n; i++) {
            out[off + i] = Float.float16ToFloat(halves.getAtIndex(ValueLayout.JAVA_SHORT, index + i));
        }
    }

    private static final VectorSpecies<Short> HALVES = VectorSpecies.of(short.class, VectorShape.forBitSize(L * 16));
}
