package com.llmserve.engine.backend.cpu;

import static com.llmserve.engine.backend.cpu.Simd.B;
import static com.llmserve.engine.backend.cpu.Simd.F;
import static com.llmserve.engine.backend.cpu.Simd.L;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;

/**
 * The Q8_0 KV cache's blocks, as llama.cpp writes them when its cache type is {@code q8_0}: its
 * {@code set_rows} quantizes each row with the CPU's {@code quantize_row_q8_0} (x86 path, the same
 * as {@link Q8Activations}): per block of 32 values, {@code d = amax / 127} stored as f16, values
 * {@code round_half_even(x * (127 / amax))} (0 for an all-zero block). Attention reads
 * {@code q * d}, {@code d} widened from its half, as ggml's {@code dequantize_row_q8_0}.
 *
 * <p>Blocks lie in a head (the head size is a multiple of 32), and a block's 32 bytes and its
 * scale are kept in two segments (see {@link CpuKvStorage}).
 */
final class Q8Kv {

    static final int BLOCK = 32;

    private Q8Kv() {}

    /**
     * Quantizes {@code x[off, off + n)} ({@code n} a multiple of 32) into bytes
     * {@code [qIndex, qIndex + n)} of {@code quants} and halves {@code [sIndex, sIndex + n / 32)}
     * of {@code scales}.
     */
    static void quantize(
            float[] x, int off, int n, MemorySegment quants, long qIndex, MemorySegment scales, long sIndex) {
        for (int b = 0; b < n / BLOCK; b++) {
            int at = off + b * BLOCK;
            float amax = 0;
            for (int j = 0; j < BLOCK; j++) {
                amax = Math.max(amax, Math.abs(x[at + j]));
            }
            float inv = amax != 0 ? 127f / amax : 0f;
            long q = qIndex + (long) b * BLOCK;
            for (int j = 0; j < BLOCK; j++) {
                // |x * inv| <= 127 up to a rounding of inv: rint never leaves [-127, 127]
                quants.set(ValueLayout.JAVA_BYTE, q + j, (byte) Math.rint(x[at + j] * inv));
            }
            scales.setAtIndex(ValueLayout.JAVA_SHORT, sIndex + b, Float.floatToFloat16(amax / 127f));
        }
    }

    /**
     * Dequantizes {@code n} values ({@code n} a multiple of 32) from bytes {@code qIndex} and
     * halves {@code sIndex} on into {@code out[off, off + n)}: {@code q * d}.
     */
    static void dequantize(
            MemorySegment quants, long qIndex, MemorySegment scales, long sIndex, float[] out, int off, int n) {
        for (int b = 0; b < n / BLOCK; b++) {
            float d = Float.float16ToFloat(scales.getAtIndex(ValueLayout.JAVA_SHORT, sIndex + b));
            long q = qIndex + (long) b * BLOCK;
            int o = off + b * BLOCK;
            int j = 0;
            if (Simd.ENABLED) {
                for (; j < BLOCK; j += L) {
                    ((FloatVector) ByteVector.fromMemorySegment(B, quants, q + j, ByteOrder.nativeOrder())
                                    .convertShape(VectorOperators.B2F, F, 0))
                            .mul(d)
                            .intoArray(out, o + j);
                }
            }
            for (; j < BLOCK; j++) {
                out[o + j] = quants.get(ValueLayout.JAVA_BYTE, q + j) * d;
            }
        }
    }

    /** {@link #dequantize} one value at a time: the reference the vector form must match. */
    static void dequantizeScalar(
            MemorySegment quants, long qIndex, MemorySegment scales, long sIndex, float[] out, int off, int n) {
        for (int i = 0; i < n; i++) {
            float d = Float.float16ToFloat(scales.getAtIndex(ValueLayout.JAVA_SHORT, sIndex + i / BLOCK));
            out[off + i] = quants.get(ValueLayout.JAVA_BYTE, qIndex + i) * d;
        }
    }
}
