package com.llmserve.engine.backend.gpu;

import java.util.function.Consumer;

/**
 * Tuning of the GPU backend. Its defaults are the constants below, which the service's
 * {@code llmserve.gpu.*} properties take as theirs.
 *
 * @param graphs           capture each step of at most {@code maxGraphRows} rows as a CUDA/HIP graph per
 *                         batch-size bucket and replay it (off: every kernel is launched each step)
 * @param maxGraphRows     the largest bucket; bigger batches (prefill) launch their kernels directly,
 *                         where each kernel runs long enough to hide its launch
 * @param gemmMinRows      products of at least this many rows dequantize the weights to F16 and run
 *                         the vendor BLAS; smaller ones use the quantized GEMV kernels, up to
 *                         eight rows per pass over the weights (but in a decode step a weight with
 *                         half copies takes the BLAS from {@code Matmul.HALF_COPY_MIN_ROWS} rows)
 * @param mmqMaxRows       products of {@code gemmMinRows} to this many rows whose weights are
 *                         quantized without half copies run tensor-core kernels (the half ones, {@code
 *                         ls_mmh_*}, any quantized format, where {@code halfTensorProducts}; else the
 *                         int8 ones, {@code ls_mmq_*}, Q4_0 / Q8_0: the quantized weights read once per
 *                         64 rows either way) instead of dequantizing them for the BLAS, on NVIDIA
 *                         devices of sm_80 on and AMD's gfx90a, gfx942 and gfx11 (MFMA / WMMA). 0 for
 *                         never
 * @param expertTensorCores a mixture's groups of several pairs of one expert (prompts, many sequences)
 *                         multiply on the int8 tensor cores ({@code ls_mmq_ex_*}, groups of up to 64
 *                         pairs) where the experts are Q4_0 or Q8_0 and the device is NVIDIA sm_80 on
 *                         or AMD gfx90a, gfx942, gfx11 (MFMA / WMMA); off: GEMV passes over groups of
 *                         up to eight
 * @param halfTensorProducts products that {@code mmqMaxRows} gives the tensor cores take the half ones
 *                         ({@code ls_mmh_*}: each quantized weight turned into half in registers as
 *                         its half copy would hold it, times the half activations) instead of the int8
 *                         ones, on NVIDIA devices of sm_80 on and AMD's matrix cores (gfx90a, gfx942, gfx11);
 *                         so do a decode step's products from {@code Matmul.HALF_COPY_MIN_ROWS} rows,
 *                         which otherwise run GEMV passes, and products of up to {@code
 *                         Matmul.HALF_PRODUCTS_OVER_COPIES_MAX_ROWS} rows over half copies (the same
 *                         half operands as the BLAS over the copies, a quarter of the bytes for Q4_0)
 * @param maxGraphs        graphs kept (least recently used ones are destroyed beyond that)
 * @param dequantBandBytes size of the F16 band a weight is dequantized into before each BLAS call;
 *                         small enough to stay in L2 between the dequantization and the GEMM
 * @param uploadChunkBytes pinned staging used to copy weights to the device
 * @param halfWeightShare  the share of the device memory free when the backend opens that half-precision
 *                         copies of the quantized weights may take (a full set is four times a Q4_0
 *                         model's size), so BLAS-path products (prefill, large batches) read them
 *                         directly instead of dequantizing each step; weights beyond the share, or
 *                         beyond what the device can allocate, go without. 0 for none
 * @param batchInvariant   every row of a step computed as it would be alone: products through the
 *                         one-row GEMV kernels (one row per pass; weights that only the BLAS path takes,
 *                         one BLAS call per row), attention through the per-row kernels with the split
 *                         count of a single row, experts in groups of one pair. A request's results then
 *                         do not depend on what else runs in its batch, at the cost of batched speed
 * @param peerAllReduce    a model split over NVIDIA GPUs that reach each other's memory sums its
 *                         decode-sized layer outputs with one kernel pushing each part into the peers'
 *                         memory ({@code ls_allreduce_f32}) instead of NCCL; larger sums, AMD GPUs and
 *                         this off take NCCL/RCCL
 * @param dependentLaunches kernels of the decode path launch before the kernel ahead of them has
 *                         ended and wait for it on the device (programmatic dependent launch: the
 *                         next kernel's blocks are placed, and a product's first weights loaded, while
 *                         the one before still finishes), on NVIDIA devices of compute capability 9
 *                         (whose code objects carry the wait); elsewhere and off, ordinary launches
 */
public record GpuOptions(
        boolean graphs,
        int maxGraphRows,
        int gemmMinRows,
        int mmqMaxRows,
        boolean expertTensorCores,
        boolean halfTensorProducts,
        int maxGraphs,
        long dequantBandBytes,
        long uploadChunkBytes,
        double halfWeightShare,
        boolean batchInvariant,
        boolean peerAllReduce,
        boolean dependentLaunches) {

    public static final boolean DEFAULT_GRAPHS = true;
    /** Decode batches of up to 64 sequences replay graphs. */
    public static final int DEFAULT_MAX_GRAPH_ROWS = 64;
    /** From 32 rows the vendor BLAS beats eight-row GEMV passes. */
    public static final int DEFAULT_GEMM_MIN_ROWS = 32;
    /**
     * A decode step's batches (up to {@link #DEFAULT_MAX_GRAPH_ROWS}): there the tensor-core kernels
     * beat dequantizing for the BLAS (docs/gpu-backend.md, "Int8 tensor-core products"); prompts
     * dequantize, and weights with half copies take the BLAS over them past {@code
     * Matmul.HALF_PRODUCTS_OVER_COPIES_MAX_ROWS} rows.
     */
    public static final int DEFAULT_MMQ_MAX_ROWS = 64;
    /**
     * On: on an H100, a 12-layer cut of qwen3-30b-a3b Q4_0 prefilled 512 tokens at 14318-14528 tok/s
     * with them and 8369-8529 without, and decoded 64 sequences at 8429-8725 against 6318-6528
     * (docs/gpu-backend.md, "The mixture of experts on the device").
     */
    public static final boolean DEFAULT_EXPERT_TENSOR_CORES = true;
    /**
     * On: on an H200 the 8B's four Q4_0 products at 64 tokens took 169 us with them and 243 us on the
     * int8 tensor cores (docs/gpu-backend.md, "Half tensor-core products over quantized weights"); 139
     * us since their token tiles are constants, and up to 48 tokens less than cuBLAS over half copies
     * takes (124.6 against 132.1 us at 48: "Constant token tiles").
     */
    public static final boolean DEFAULT_HALF_TENSOR_PRODUCTS = true;

    public static final int DEFAULT_MAX_GRAPHS = 64;
    public static final int DEFAULT_DEQUANT_BAND_MIB = 32;
    public static final int DEFAULT_UPLOAD_CHUNK_MIB = 64;
    /** The smallest dequantization band and upload staging. */
    public static final int MIN_STAGING_MIB = 1;
    /** Half of the free memory: the KV cache and activations keep the other half. */
    public static final double DEFAULT_HALF_WEIGHT_SHARE = 0.5;
    /**
     * On: on two H100s a 70B step's 160 sums cost 0.49 ms with the kernel and 1.55 ms through NCCL
     * ({@code bench/kernels/run.sh allreduce}; docs/gpu-backend.md, "Tensor parallelism").
     */
    public static final boolean DEFAULT_PEER_ALL_REDUCE = true;
    /**
     * On: on an H100 an 8B Q4_0's batch-1 decode graph took 2.31-2.32 ms with them and 2.42-2.43
     * without, and 64 sequences decoded at 7465 tok/s against 6984-7145 (docs/gpu-backend.md,
     * "Dependent launches").
     */
    public static final boolean DEFAULT_DEPENDENT_LAUNCHES = true;

    public GpuOptions {
        if (mmqMaxRows < 0) {
            throw new IllegalArgumentException("mmqMaxRows must not be negative: " + mmqMaxRows);
        }
        if (maxGraphRows < 1 || gemmMinRows < 1 || maxGraphs < 1) {
            throw new IllegalArgumentException("maxGraphRows, gemmMinRows and maxGraphs must be positive: "
                    + maxGraphRows + ", " + gemmMinRows + ", " + maxGraphs);
        }
        if (dequantBandBytes < mib(MIN_STAGING_MIB) || uploadChunkBytes < mib(MIN_STAGING_MIB)) {
            throw new IllegalArgumentException("dequantBandBytes and uploadChunkBytes must be at least "
                    + MIN_STAGING_MIB + " MiB: " + dequantBandBytes + ", " + uploadChunkBytes);
        }
        if (!(halfWeightShare >= 0 && halfWeightShare <= 1)) {
            throw new IllegalArgumentException("halfWeightShare must be in [0, 1]: " + halfWeightShare);
        }
    }

    /**
     * Graphs up to 64 rows, int8 tensor-core products for experts' groups only, BLAS from 32 rows,
     * 32 MiB dequantization bands, 64 MiB upload staging, half copies in half of the free memory, not
     * batch-invariant.
     */
    public static GpuOptions defaults() {
        return new GpuOptions(
                DEFAULT_GRAPHS,
                DEFAULT_MAX_GRAPH_ROWS,
                DEFAULT_GEMM_MIN_ROWS,
                DEFAULT_MMQ_MAX_ROWS,
                DEFAULT_EXPERT_TENSOR_CORES,
                DEFAULT_HALF_TENSOR_PRODUCTS,
                DEFAULT_MAX_GRAPHS,
                mib(DEFAULT_DEQUANT_BAND_MIB),
                mib(DEFAULT_UPLOAD_CHUNK_MIB),
                DEFAULT_HALF_WEIGHT_SHARE,
                false,
                DEFAULT_PEER_ALL_REDUCE,
                DEFAULT_DEPENDENT_LAUNCHES);
    }

    public GpuOptions withGraphs(boolean on) {
        return with(b -> b.graphs = on);
    }

    public GpuOptions withGemmMinRows(int rows) {
        return with(b -> b.gemmMinRows = rows);
    }

    public GpuOptions withMmqMaxRows(int rows) {
        return with(b -> b.mmqMaxRows = rows);
    }

    public GpuOptions withExpertTensorCores(boolean on) {
        return with(b -> b.expertTensorCores = on);
    }

    public GpuOptions withHalfTensorProducts(boolean on) {
        return with(b -> b.halfTensorProducts = on);
    }

    /** Whether any half copies are kept. */
    public boolean halfWeights() {
        return halfWeightShare > 0;
    }

    /** Half copies of every weight while device memory lasts, or none. */
    public GpuOptions withHalfWeights(boolean on) {
        return withHalfWeightShare(on ? 1 : 0);
    }

    public GpuOptions withHalfWeightShare(double share) {
        return with(b -> b.halfWeightShare = share);
    }

    /**
     * These options with {@link #batchInvariant()} on (and then no half copies: only the BLAS path,
     * which invariant products leave, reads them) or off.
     */
    public GpuOptions withBatchInvariant(boolean on) {
        return with(b -> {
            b.batchInvariant = on;
            if (on) {
                b.halfWeightShare = 0;
            }
        });
    }

    /** These options with {@link #peerAllReduce()} on or off (NCCL/RCCL for every sum). */
    public GpuOptions withPeerAllReduce(boolean on) {
        return with(b -> b.peerAllReduce = on);
    }

    /** These options with {@link #dependentLaunches()} on or off (ordinary launches only). */
    public GpuOptions withDependentLaunches(boolean on) {
        return with(b -> b.dependentLaunches = on);
    }

    private static long mib(int mib) {
        return (long) mib << 20;
    }

    /** A copy of these options with what {@code change} sets; the copy is checked as any other. */
    private GpuOptions with(Consumer<Copy> change) {
        Copy c = new Copy(this);
        change.accept(c);
        return c.options();
    }

    /** The components of a {@link GpuOptions} being copied, each settable. */
    private static final class Copy {
        boolean graphs;
        int maxGraphRows;
        int gemmMinRows;
        int mmqMaxRows;
        boolean expertTensorCores;
        boolean halfTensorProducts;
        int maxGraphs;
        long dequantBandBytes;
        long uploadChunkBytes;
        double halfWeightShare;
        boolean batchInvariant;
        boolean peerAllReduce;
        boolean dependentLaunches;

        Copy(GpuOptions o) {
            graphs = o.graphs;
            maxGraphRows = o.maxGraphRows;
            gemmMinRows = o.gemmMinRows;
            mmqMaxRows = o.mmqMaxRows;
            expertTensorCores = o.expertTensorCores;
            halfTensorProducts = o.halfTensorProducts;
            maxGraphs = o.maxGraphs;
            dequantBandBytes = o.dequantBandBytes;
            uploadChunkBytes = o.uploadChunkBytes;
            halfWeightShare = o.halfWeightShare;
            batchInvariant = o.batchInvariant;
            peerAllReduce = o.peerAllReduce;
            dependentLaunches = o.dependentLaunches;
        }

        GpuOptions options() {
            return new GpuOptions(
                    graphs,
                    maxGraphRows,
                    gemmMinRows,
                    mmqMaxRows,
                    expertTensorCores,
                    halfTensorProducts,
                    maxGraphs,
                    dequantBandBytes,
                    uploadChunkBytes,
                    halfWeightShare,
                    batchInvariant,
                    peerAllReduce,
                    dependentLaunches);
        }
    }
}
