package com.llmserve.engine.backend.cpu;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

import static com.llmserve.engine.backend.cpu.Simd.F;
import static com.llmserve.engine.backend.cpu.Simd.L;

/** Vectorised float-array kernels for the activation-side operations (norms, attention, activations). */
final class FloatMath {

    private FloatMath() {
    }

    /** {@code a[ao..ao+n) · b[bo..bo+n)}. */
    static float dot(float[] a, int ao, float[] b, int bo, int n) {
        int i = 0;
        float s = 0;
        if (Simd.ENABLED && n >= L) {
            FloatVector acc = FloatVector.zero(F);
            for (; i + L <= n; i += L) {
                acc = FloatVector.fromArray(F, a, ao + i).fma(FloatVector.fromArray(F, b, bo + i), acc);
            }
            s = acc.reduceLanes(VectorOperators.ADD);
        }
        for (; i < n; i++) {
            s += a[ao + i] * b[bo + i];
        }
        return s;
    }

    /** {@code y[yo..yo+n) += alpha * x[xo..xo+n)}. */
    static void axpy(float alpha, float[] x, int xo, float[] y, int yo, int n) {
        int i = 0;
        if (Simd.ENABLED) {
            FloatVector a = FloatVector.broadcast(F, alpha);
            for (; i + L <= n; i += L) {
                FloatVector.fromArray(F, x, xo + i).fma(a, FloatVector.fromArray(F, y, yo + i)).intoArray(y, yo + i);
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
                s += acc.reduceLanes(VectorOperators.ADD);
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
                FloatVector.fromArray(F, x, xo + i).mul(inv).mul(FloatVector.fromArray(F, w, i)).intoArray(out, oo + i);
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
                FloatVector.fromArray(F, x, xo + i).add(FloatVector.fromArray(F, y, yo + i)).intoArray(x, xo + i);
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
                FloatVector silu = v.div(v.neg().lanewise(VectorOperators.EXP).add(1f));
                silu.mul(FloatVector.fromArray(F, u, uo + i)).intoArray(out, oo + i);
            }
        }
        for (; i < n; i++) {
            float v = g[go + i];
            out[oo + i] = v / (1f + (float) Math.exp(-v)) * u[uo + i];
        }
    }

    /** In place {@code x[off+i] = exp(x[off+i] - max)} for {@code i < n}, returning the sum. */
    static float expMinusMax(float[] x, int off, int n, float max) {
        int i = 0;
        float sum = 0;
        if (Simd.ENABLED) {
            FloatVector acc = FloatVector.zero(F);
            for (; i + L <= n; i += L) {
                FloatVector e = FloatVector.fromArray(F, x, off + i).sub(max).lanewise(VectorOperators.EXP);
                e.intoArray(x, off + i);
                acc = acc.add(e);
            }
            sum = acc.reduceLanes(VectorOperators.ADD);
        }
        for (; i < n; i++) {
            x[off + i] = (float) Math.exp(x[off + i] - max);
            sum += x[off + i];
        }
        return sum;
    }

    static float max(float[] x, int off, int n) {
        float m = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            m = Math.max(m, x[off + i]);
        }
        return m;
    }

    /** {@code out[0..n) = float(halves[index..index+n))}, the halves in native byte order. */
    static void widenHalves(MemorySegment halves, long index, float[] out, int n) {
        int i = 0;
        if (Simd.ENABLED) {
            for (; i + L <= n; i += L) {
                F16Tensor.halfToFloat(ShortVector.fromMemorySegment(HALVES, halves, 2 * (index + i), ByteOrder.nativeOrder()))
                        .intoArray(out, i);
            }
        }
        for (; i < n; i++) {
            out[i] = Float.float16ToFloat(halves.getAtIndex(ValueLayout.JAVA_SHORT, index + i));
        }
    }

    private static final VectorSpecies<Short> HALVES = VectorSpecies.of(short.class, VectorShape.forBitSize(L * 16));
}
