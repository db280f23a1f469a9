package com.llmserve.engine.backend.cpu;

import java.util.EnumMap;
import java.util.Map;

/**
 * Quantizes a product's activations once per format and keeps the buffers for the next product,
 * so that the engine loop allocates nothing per step. Used by one thread at a time.
 */
final class ActivationCache {

    private final Map<ActivationFormat, float[]> floats = new EnumMap<>(ActivationFormat.class);
    private Q8Activations integers;
    /** Formats already quantized for the current product: the parts of a fused weight share them. */
    private final Map<ActivationFormat, Boolean> fresh = new EnumMap<>(ActivationFormat.class);
    private final Map<ActivationFormat, float[]> octets = new EnumMap<>(ActivationFormat.class);
    private final Map<ActivationFormat, Boolean> freshOctets = new EnumMap<>(ActivationFormat.class);

    /** Forgets what the buffers hold; call at the start of every product. */
    void reset() {
        fresh.clear();
        freshOctets.clear();
    }

    /** The activations {@code x} ({@code tokens} rows of {@code t.cols()}) as {@code t}'s kernels want them. */
    PreparedInput prepare(CpuTensor t, float[] x, int tokens) {
        int n = tokens * t.cols();
        ActivationFormat format = t.activationFormat();
        if (format == ActivationFormat.FLOAT) {
            return new PreparedInput(x, null, octets(format, x, tokens, t.cols()));
        }
        boolean ints = format == ActivationFormat.Q8_0;
        float[] out = floats.get(format);
        if (out == null || out.length < n) {
            out = new float[n];
            floats.put(format, out);
            fresh.remove(format);
        }
        if (!fresh.containsKey(format)) {
            if (ints) {
                if (integers == null || integers.capacity() < n) {
                    integers = new Q8Activations(n);
                }
                integers.quantize(x, n);
                integers.dequantize(out, n);
            } else {
                Q8Activations.roundTripQ8K(x, n, out);
            }
            fresh.put(format, true);
        }
        return new PreparedInput(out, ints && t.usesIntegerActivations(tokens) ? integers : null,
                octets(format, out, tokens, t.cols()));
    }

    /** {@code values} interleaved for {@link TileGemm}'s 8-token kernel, once per format and product; null for small batches. */
    private float[] octets(ActivationFormat format, float[] values, int tokens, int cols) {
        if (tokens < TileGemm.OCTET || !Simd.ENABLED) {
            return null;
        }
        int n = tokens / TileGemm.OCTET * TileGemm.OCTET * cols;
        float[] out = octets.get(format);
        if (out == null || out.length < n) {
            out = new float[n];
            octets.put(format, out);
            freshOctets.remove(format);
        }
        if (!freshOctets.containsKey(format)) {
            TileGemm.interleaveOctets(values, tokens, cols, out);
            freshOctets.put(format, true);
        }
        return out;
    }
}
