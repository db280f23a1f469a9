package com.llmserve.engine.backend.cpu;

/**
 * Activations quantized for the native kernels as ggml's {@code quantize_row_q8_0}: the 8-bit
 * values, each block of 32's scale (f16-rounded) and the sum of its values. The same numbers as
 * {@link Q8Activations}, in bytes.
 */
final class NativeQ8 {

    final byte[] values;
    final float[] scales;
    final int[] sums;

    NativeQ8(int elements) {
        this.values = new byte[elements];
        this.scales = new float[elements / 32];
        this.sums = new int[elements / 32];
    }

    int capacity() {
        return values.length;
    }
}
