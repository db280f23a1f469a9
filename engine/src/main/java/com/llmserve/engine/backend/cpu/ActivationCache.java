package com.llmserve.engine.backend.cpu;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Quantizes a product's activations once per format and keeps the buffers for the next product,
 * so that the engine loop allocates nothing per step. Used by one thread at a time; the work
 * itself is split over the backend's threads by runs of {@link TileGemm#OCTET} tokens.
 */
final class ActivationCache {

    private final boolean batchInvariant;
    private final Map<ActivationFormat, float[]> floats = new EnumMap<>(ActivationFormat.class);
    private final Map<ActivationFormat, float[]> octets = new EnumMap<>(ActivationFormat.class);
    private Q8Activations integers;
    /** The native kernels' activations per format, and the formats that hold the current product's. */
    private final Map<ActivationFormat, NativeQ8> nativeBuffers = new EnumMap<>(ActivationFormat.class);

    private final Set<ActivationFormat> nativeFresh = EnumSet.noneOf(ActivationFormat.class);
    /** Formats already prepared for the current product: the parts of a fused weight share them. */
    private final Set<ActivationFormat> fresh = EnumSet.noneOf(ActivationFormat.class);

    ActivationCache() {
        this(false);
    }

    /**
     * @param batchInvariant whether every batch takes the kernels of a single token (no tiles), so
     *                       a row's result never depends on how many rows share its product
     */
    ActivationCache(boolean batchInvariant) {
        this.batchInvariant = batchInvariant;
    }

    /** Forgets what the buffers hold; call at the start of every product. */
    void reset() {
        fresh.clear();
        nativeFresh.clear();
    }

    /**
     * The activations {@code x} ({@code tokens} rows of {@code t.cols()}) as {@code t}'s kernels
     * want them, prepared on {@code parallel}'s threads, or on this one when it is null.
     */
    PreparedInput prepare(CpuTensor t, float[] x, int tokens, Parallel parallel) {
        int cols = t.cols();
        int n = tokens * cols;
        ActivationFormat format = t.activationFormat();
        NativeKernels kernels = t.nativeKernels();
        if (kernels != null) {
            return new PreparedInput(
                    null, null, null, false, prepareNative(kernels, format, x, n, cols, tokens, parallel));
        }
        boolean ints = format == ActivationFormat.Q8_0;
        float[] values = format == ActivationFormat.FLOAT ? x : buffer(floats, format, n);
        if (ints && (integers == null || integers.capacity() < n)) {
            integers = new Q8Activations(n);
            fresh.remove(format);
        }
        boolean tiled = !batchInvariant && Simd.ENABLED && tokens >= CpuTensor.TILE_MIN_TOKENS;
        int wholeOctets = tiled ? tokens / TileGemm.OCTET : 0;
        float[] interleaved = wholeOctets > 0 ? buffer(octets, format, wholeOctets * TileGemm.OCTET * cols) : null;
        if (fresh.add(format)) {
            Q8Activations q = integers;
            Parallel.Range body = (from, to) -> {
                int a = from * TileGemm.OCTET * cols;
                int b = Math.min(tokens, to * TileGemm.OCTET) * cols;
                switch (format) {
                    case Q8_0 -> {
                        q.quantize(x, a, b);
                        q.dequantize(values, a, b);
                    }
                    case Q8_K -> Q8Activations.roundTripQ8K(x, a, b, values);
                    case FLOAT -> {}
                }
                if (interleaved != null) {
                    TileGemm.interleaveOctets(values, cols, interleaved, from, Math.min(to, wholeOctets));
                }
            };
            int runs = (tokens + TileGemm.OCTET - 1) / TileGemm.OCTET;
            if (parallel == null) {
                body.run(0, runs);
            } else {
                parallel.forEach(runs, 1, body);
            }
        }
        return new PreparedInput(values, ints && t.usesIntegerActivations(tiled) ? integers : null, interleaved, tiled);
    }

    /** The native kernels' activations in {@code format}, quantized once per product on {@code parallel}'s threads. */
    private NativeQ8 prepareNative(
            NativeKernels kernels, ActivationFormat format, float[] x, int n, int cols, int tokens, Parallel parallel) {
        NativeQ8 q = nativeBuffers.get(format);
        if (q == null || q.capacity() < n) {
            q = new NativeQ8(format, n);
            nativeBuffers.put(format, q);
            nativeFresh.remove(format);
        }
        if (nativeFresh.add(format)) {
            NativeQ8 target = q;
            Parallel.Range body = (from, to) -> kernels.quantize(
                    x, from * TileGemm.OCTET * cols, Math.min(tokens, to * TileGemm.OCTET) * cols, target);
            int runs = (tokens + TileGemm.OCTET - 1) / TileGemm.OCTET;
            if (parallel == null) {
                body.run(0, runs);
            } else {
                parallel.forEach(runs, 1, body);
            }
        }
        return q;
    }

    /** {@code format}'s buffer in {@code buffers}, grown to {@code n} floats (which makes the format stale). */
    private float[] buffer(Map<ActivationFormat, float[]> buffers, ActivationFormat format, int n) {
        float[] b = buffers.get(format);
        if (b == null || b.length < n) {
            b = new float[n];
            buffers.put(format, b);
            fresh.remove(format);
        }
        return b;
    }
}
