package com.llmserve.engine.backend.cpu;

import static com.llmserve.engine.backend.cpu.Simd.F;
import static com.llmserve.engine.backend.cpu.Simd.L;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Activations quantized to 8-bit integers in blocks of 32, the way ggml quantizes the input of a
 * Q4_0/Q5_0/Q8_0 matrix product ({@code quantize_row_q8_0}, x86 path): {@code d = amax / 127}
 * kept as f16, values {@code round_half_even(x * 127 / amax)}.
 */
final class Q8Activations {

    private static final VectorSpecies<Integer> I = VectorSpecies.of(int.class, VectorShape.forBitSize(L * 32));
    private static final VectorSpecies<Short> S = VectorSpecies.of(short.class, VectorShape.forBitSize(L * 16));
    private static final float ROUNDER = 0x1.8p23f;

    final short[] values;
    final float[] scales;
    /** Per block, the sum of its quantized values (for the Q4_0 offset of 8). */
    final int[] sums;

    Q8Activations(int elements) {
        this.values = new short[elements];
        this.scales = new float[elements / 32];
        this.sums = new int[elements / 32];
    }

    int capacity() {
        return values.length;
    }

    /** Quantizes values {@code [from, to)} of {@code x} (both multiples of 32). */
    void quantize(float[] x, int from, int to) {
        if (!Simd.ENABLED) {
            quantizeScalar(x, from, to);
            return;
        }
        for (int b = from / 32; b < to / 32; b++) {
            int at = 32 * b;
            FloatVector amaxes = FloatVector.zero(F);
            for (int j = 0; j < 32; j += L) {
                amaxes = amaxes.max(FloatVector.fromArray(F, x, at + j).abs());
            }
            float amax = amaxes.reduceLanes(VectorOperators.MAX);
            float inv = amax != 0 ? 127f / amax : 0f;
            IntVector sum = IntVector.zero(I);
            for (int j = 0; j < 32; j += L) {
                // adding and taking away 1.5 * 2^23 rounds half to even, as Math.rint, for |p| <= 127
                FloatVector p = FloatVector.fromArray(F, x, at + j).mul(inv);
                IntVector q = (IntVector) p.add(ROUNDER).sub(ROUNDER).convert(VectorOperators.F2I, 0);
                ((ShortVector) q.convertShape(VectorOperators.I2S, S, 0)).intoArray(values, at + j);
                sum = sum.add(q);
            }
            scales[b] = Float.float16ToFloat(Float.floatToFloat16(amax / 127f));
            sums[b] = sum.reduceLanes(VectorOperators.ADD);
        }
    }

    /** {@link #quantize} one value at a time: the reference the vector form must match. */
    void quantizeScalar(float[] x, int from, int to) {
        for (int b = from / 32; b < to / 32; b++) {
            int at = 32 * b;
            float amax = 0;
            for (int j = 0; j < 32; j++) {
                amax = Math.max(amax, Math.abs(x[at + j]));
            }
            float inv = amax != 0 ? 127f / amax : 0f;
            int sum = 0;
            for (int j = 0; j < 32; j++) {
                short q = (short) Math.rint(x[at + j] * inv);
                values[at + j] = q;
                sum += q;
            }
            scales[b] = Float.float16ToFloat(Float.floatToFloat16(amax / 127f));
            sums[b] = sum;
        }
    }

    /** The values {@code [from, to)} stand for, {@code q * d}: what float kernels multiply with. */
    void dequantize(float[] out, int from, int to) {
        if (!Simd.ENABLED) {
            for (int i = from; i < to; i++) {
                out[i] = values[i] * scales[i / 32];
            }
            return;
        }
        for (int b = from / 32; b < to / 32; b++) {
            float d = scales[b];
            for (int j = 32 * b; j < 32 * b + 32; j += L) {
                ((FloatVector) ShortVector.fromArray(S, values, j).convertShape(VectorOperators.S2F, F, 0))
                        .mul(d)
                        .intoArray(out, j);
            }
        }
    }

    /**
     * {@code quantize_row_q8_K} then back to floats, for K-quant weights: per block of 256, the
     * scale is {@code max / -127} of the signed value of largest magnitude (first one on a tie),
     * values {@code min(127, round_half_even(x * -127 / max))}; values {@code [from, to)}, multiples of 256.
     */
    static void roundTripQ8K(float[] x, int from, int to, float[] out) {
        for (int at = from; at < to; at += 256) {
            float amax = 0;
            float max = 0;
            for (int j = 0; j < 256; j++) {
                float ax = Math.abs(x[at + j]);
                if (ax > amax) {
                    amax = ax;
                    max = x[at + j];
                }
            }
            if (amax == 0) {
                java.util.Arrays.fill(out, at, at + 256, 0f);
                continue;
            }
            float iscale = -127f / max;
            float d = 1 / iscale;
            for (int j = 0; j < 256; j++) {
                int q = Math.min(127, (int) Math.rint(iscale * x[at + j]));
                out[at + j] = d * q;
            }
        }
    }
}
