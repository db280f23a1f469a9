package com.llmserve.engine.backend.cpu;

/**
 * Activations quantized to 8-bit integers in blocks of 32, the way ggml quantizes the input of a
 * Q4_0 matrix product ({@code quantize_row_q8_0}): {@code d = amax / 127} kept as f16, values
 * {@code round_half_even(x * 127 / amax)}. Integer products then run 16-bit multiplies.
 */
final class Q8Activations {

    final short[] values;
    final float[] scales;
    /** Per block, the sum of its quantized values (for the Q4_0 offset of 8). */
    final int[] sums;

    Q8Activations(int tokens, int cols) {
        this.values = new short[tokens * cols];
        this.scales = new float[tokens * cols / 32];
        this.sums = new int[tokens * cols / 32];
    }

    int capacity() {
        return values.length;
    }

    /** Quantizes {@code tokens} rows of {@code cols} floats from {@code x}. */
    void quantize(float[] x, int tokens, int cols) {
        int blocks = tokens * cols / 32;
        for (int b = 0; b < blocks; b++) {
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
}
