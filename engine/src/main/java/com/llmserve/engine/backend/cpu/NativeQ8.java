package com.llmserve.engine.backend.cpu;

/**
 * Activations quantized for the native kernels as ggml quantizes a product's input: the 8-bit
 * values, each block's scale and sums. {@link ActivationFormat#Q8_0}: blocks of 32, scale
 * f16-rounded, one sum per block (the same numbers as {@link Q8Activations}, in bytes);
 * {@link ActivationFormat#Q8_K}: blocks of 256, a float scale, one sum per 16 values.
 */
final class NativeQ8 {

    final ActivationFormat format;
    final byte[] values;
    final float[] scales;
    final int[] sums;
    /**
     * Q8_K only: per block the 8 sums of 32 values (within +-4064) split as {@code 64 hi + lo}, the
     * 8 {@code hi} bytes then the 8 {@code lo} bytes, for Q4_K's mins; null for Q8_0.
     */
    final byte[] split;

    NativeQ8(int elements) {
        this(ActivationFormat.Q8_0, elements);
    }

    NativeQ8(ActivationFormat format, int elements) {
        this.format = format;
        this.values = new byte[elements];
        this.scales = new float[elements / format.blockSize()];
        this.sums = new int[format == ActivationFormat.Q8_K ? elements / 16 : elements / 32];
        this.split = format == ActivationFormat.Q8_K ? new byte[elements / 256 * 16] : null;
    }

    int capacity() {
        return values.length;
    }
}
