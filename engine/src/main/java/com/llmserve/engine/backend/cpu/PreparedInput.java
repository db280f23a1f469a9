package com.llmserve.engine.backend.cpu;

/**
 * The activations of one matrix product after the quantization its weight type calls for: the
 * float values every kernel multiplies with, and the 8-bit integers behind them when a kernel
 * works on those directly. Made once per product, before the rows are split over threads.
 *
 * @param values   quantized-and-restored activations ({@code tokens * cols} floats), or the input itself
 * @param integers the Q8_0 integers and scales, for kernels that use them; otherwise null
 * @param octets   {@code values} in {@link TileGemm#interleaveOctets} order for batches of at least
 *                 {@link TileGemm#OCTET} tokens; otherwise null
 * @param tiled    whether the product runs through {@link TileGemm} (batches of at least
 *                 {@link CpuTensor#TILE_MIN_TOKENS} tokens, unless the backend is batch-invariant)
 * @param nativeQ8 the activations quantized for the native kernels, when the weight has them (the
 *                 other components are then null); otherwise null
 */
record PreparedInput(float[] values, Q8Activations integers, float[] octets, boolean tiled, NativeQ8 nativeQ8) {

    PreparedInput(float[] values, Q8Activations integers, float[] octets, boolean tiled) {
        this(values, integers, octets, tiled, null);
    }

    /** Prepares {@code x} for {@code t} without reusing buffers (tests, one-off products). */
    static PreparedInput of(CpuTensor t, float[] x, int tokens) {
        return new ActivationCache().prepare(t, x, tokens, null);
    }
}
