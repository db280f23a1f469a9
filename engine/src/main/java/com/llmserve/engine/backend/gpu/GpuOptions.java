package com.llmserve.engine.backend.gpu;

/**
 * Tuning of the GPU backend.
 *
 * @param graphs           capture each step of at most {@code maxGraphRows} rows as a CUDA/HIP graph per
 *                         batch-size bucket and replay it (off: every kernel is launched each step)
 * @param maxGraphRows     the largest bucket; bigger batches (prefill) launch their kernels directly,
 *                         where each kernel runs long enough to hide its launch
 * @param gemmMinRows      products of at least this many rows dequantize the weights to F16 and run
 *                         the vendor BLAS; smaller ones use the quantized GEMV kernels, up to
 *                         eight rows per pass over the weights
 * @param maxGraphs        graphs kept (least recently used ones are destroyed beyond that)
 * @param dequantBandBytes size of the F16 band a weight is dequantized into before each BLAS call;
 *                         small enough to stay in L2 between the dequantization and the GEMM
 * @param uploadChunkBytes pinned staging used to copy weights to the device
 * @param halfWeights      also keep a half-precision copy of every quantized weight (four times a
 *                         Q4_0 model's size more device memory), so BLAS-path products (prefill, large
 *                         batches) read it directly instead of dequantizing each step; when memory
 *                         runs out the remaining weights go without
 */
public record GpuOptions(boolean graphs, int maxGraphRows, int gemmMinRows, int maxGraphs, long dequantBandBytes,
                         long uploadChunkBytes, boolean halfWeights) {

    public GpuOptions {
        if (maxGraphRows < 1 || gemmMinRows < 1 || maxGraphs < 1) {
            throw new IllegalArgumentException("maxGraphRows, gemmMinRows and maxGraphs must be positive");
        }
        if (dequantBandBytes < (1 << 20) || uploadChunkBytes < (1 << 20)) {
            throw new IllegalArgumentException("dequantBandBytes and uploadChunkBytes must be at least 1 MiB");
        }
    }

    /** Graphs up to 64 rows, BLAS from 32 rows, 32 MiB dequantization bands, 64 MiB upload staging, no half copies. */
    public static GpuOptions defaults() {
        return new GpuOptions(true, 64, 32, 64, 32L << 20, 64L << 20, false);
    }

    public GpuOptions withGraphs(boolean on) {
        return new GpuOptions(on, maxGraphRows, gemmMinRows, maxGraphs, dequantBandBytes, uploadChunkBytes, halfWeights);
    }

    public GpuOptions withGemmMinRows(int rows) {
        return new GpuOptions(graphs, maxGraphRows, rows, maxGraphs, dequantBandBytes, uploadChunkBytes, halfWeights);
    }

    public GpuOptions withHalfWeights(boolean on) {
        return new GpuOptions(graphs, maxGraphRows, gemmMinRows, maxGraphs, dequantBandBytes, uploadChunkBytes, on);
    }
}
