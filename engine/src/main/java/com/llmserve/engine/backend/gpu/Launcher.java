package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.backend.gpu.DeviceOp.Add;
import com.llmserve.engine.backend.gpu.DeviceOp.AddBias;
import com.llmserve.engine.backend.gpu.DeviceOp.AddRmsNorm;
import com.llmserve.engine.backend.gpu.DeviceOp.Attention;
import com.llmserve.engine.backend.gpu.DeviceOp.Embed;
import com.llmserve.engine.backend.gpu.DeviceOp.Gather;
import com.llmserve.engine.backend.gpu.DeviceOp.LayerNorm;
import com.llmserve.engine.backend.gpu.DeviceOp.Matmul;
import com.llmserve.engine.backend.gpu.DeviceOp.RmsNorm;
import com.llmserve.engine.backend.gpu.DeviceOp.RotaryEmbedding;
import com.llmserve.engine.backend.gpu.DeviceOp.SwiGlu;
import com.llmserve.engine.backend.gpu.DeviceOp.TopK;
import com.llmserve.engine.backend.gpu.Scratch.Slot;
import com.llmserve.engine.backend.gpu.StepMeta.Region;
import com.llmserve.gpu.BlasType;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.DeviceBuffer;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.gpu.Stream;
import com.llmserve.gpu.Transpose;
import com.llmserve.kernels.Kernel;

/**
 * Turns recorded operations into kernel launches and BLAS calls on one stream. Everything it
 * touches was sized when the operation was recorded; nothing here allocates, so the same calls
 * can be captured into a graph.
 */
final class Launcher {

    /** Threads per block of the element-wise kernels. */
    static final int THREADS = 256;
    /** Threads per block of the row kernels (norms), a multiple of every wave size. */
    static final int ROW_THREADS = 256;
    /** Must match LS_MMV_THREADS in gemv.hip. */
    static final int GEMV_THREADS = 128;
    /** Must match LS_ATT_THREADS in attention.hip (every attention kernel's block). */
    static final int ATTENTION_THREADS = 128;

    static final int TOPK_THREADS = 1024;
    /** Must match LS_ENC_THREADS in encoder.hip. */
    static final int ENCODER_THREADS = 128;
    /** Positions per block of the tiled encoder attention kernels (LS_ENC_QUERIES: eight lanes each). */
    static final int ENCODER_QUERIES = 16;
    /** Must match LS_ENC_MAX_DIM in encoder.hip. */
    static final int ENCODER_MAX_HEAD_DIM = 256;
    /** Must match LS_DEC_MAX_GROUP in attention.hip. */
    static final int DECODE_ATTENTION_MAX_GROUP = 8;

    private final Device device;
    private final Stream stream;
    private final Scratch scratch;
    private final StepMeta meta;
    private final long dequantBandBytes;

    Launcher(Device device, Stream stream, Scratch scratch, StepMeta meta, long dequantBandBytes) {
        this.device = device;
        this.stream = stream;
        this.scratch = scratch;
        this.meta = meta;
        this.dequantBandBytes = dequantBandBytes;
    }

    private void launch(Kernel kernel, LaunchConfig config, KernelArgs args) {
        stream.launch(device.function(kernel), config, args);
    }

    private static LaunchConfig covering(long items) {
        return LaunchConfig.covering(items, THREADS);
    }

    private KernelArgs metaArg(KernelArgs args, Region region) {
        return args.pointer(meta.buffer(), meta.offset(region));
    }

    void embed(Embed op) {
        GpuWeight.Band band = op.table().bands.getFirst();
        int k = op.table().cols();
        if (k % 8 != 0) { // F32 rows of any length (formatFor): element by element
            KernelArgs args = metaArg(KernelArgs.of().pointer(band.data()), Region.TOKENS)
                    .pointer(op.out().buffer)
                    .i32(k)
                    .i32(op.n());
            launch(Kernel.EMBED_F32_ANY, covering((long) op.n() * k), args);
            return;
        }
        KernelArgs args = KernelArgs.of().pointer(band.data()).pointer(band.data(), band.scalesOffset());
        metaArg(args, Region.TOKENS).pointer(op.out().buffer).i32(k).i32(op.n());
        launch(band.format().embedKernel(), covering((long) op.n() * k / 8), args);
    }

    void rmsNorm(RmsNorm op) {
        if (op.quantize()) {
            rmsNormQ8(op.x(), null, op.weight(), op.out(), op.n(), op.eps());
            return;
        }
        int cols = op.x().cols();
        boolean v4 = cols % 4 == 0;
        launch(
                v4 ? Kernel.RMS_NORM_V4 : Kernel.RMS_NORM_F32,
                LaunchConfig.of(op.n(), v4 ? rowThreads(cols) : ROW_THREADS),
                KernelArgs.of()
                        .pointer(op.x().buffer)
                        .pointer(op.weight().vector)
                        .pointer(op.out().buffer)
                        .i32(cols)
                        .f32(op.eps()));
    }

    void addRmsNorm(AddRmsNorm op) {
        if (op.quantize()) {
            rmsNormQ8(op.x(), op.residual(), op.weight(), op.out(), op.n(), op.eps());
            return;
        }
        int cols = op.x().cols();
        boolean v4 = cols % 4 == 0;
        launch(
                v4 ? Kernel.ADD_RMS_NORM_V4 : Kernel.ADD_RMS_NORM_F32,
                LaunchConfig.of(op.n(), v4 ? rowThreads(cols) : ROW_THREADS),
                KernelArgs.of()
                        .pointer(op.x().buffer)
                        .pointer(op.residual().buffer)
                        .pointer(op.weight().vector)
                        .pointer(op.out().buffer)
                        .i32(cols)
                        .f32(op.eps()));
    }

    /** Weight rows per GEMV block for {@code columns} tokens: must match ls_mmv_rows in gemv.hip. */
    static int gemvRows(int columns) {
        return columns >= 4 ? 4 : 2;
    }

    /** Threads for a vectorized row kernel: one float4 each, a multiple of 64 (every wave size), at most 1024. */
    static int rowThreads(int cols) {
        int vecs = (cols / 4 + 63) / 64 * 64;
        return Math.max(64, Math.min(1024, vecs));
    }

    /** Callers guarantee rows a multiple of 32 long (Q8_0 blocks), hence of 4. */
    private void rmsNormQ8(
            GpuActivations x, GpuActivations residual, GpuWeight weight, GpuActivations out, int n, float eps) {
        KernelArgs args = KernelArgs.of().pointer(x.buffer);
        if (residual != null) {
            args.pointer(residual.buffer);
        } else {
            args.i64(0);
        }
        args.pointer(weight.vector).pointer(out.buffer);
        launch(
                Kernel.RMS_NORM_Q8_V4,
                LaunchConfig.of(n, rowThreads(x.cols())),
                q8Args(args).i32(x.cols()).f32(eps));
    }

    private KernelArgs q8Args(KernelArgs args) {
        return args.pointer(scratch.get(Slot.XQ)).pointer(scratch.get(Slot.XD)).pointer(scratch.get(Slot.XS));
    }

    void layerNorm(LayerNorm op) {
        launch(
                Kernel.LAYER_NORM_F32,
                LaunchConfig.of(op.n(), ROW_THREADS),
                KernelArgs.of()
                        .pointer(op.x().buffer)
                        .pointer(op.weight().vector)
                        .pointer(op.bias().vector)
                        .pointer(op.out().buffer)
                        .i32(op.x().cols())
                        .f32(op.eps()));
    }

    void addBias(AddBias op) {
        int cols = op.x().cols();
        long total = (long) op.n() * cols;
        launch(
                Kernel.ADD_BIAS_F32,
                covering(total),
                KernelArgs.of()
                        .pointer(op.x().buffer)
                        .pointer(op.bias().vector)
                        .i32(cols)
                        .i32(Math.toIntExact(total)));
    }

    void add(Add op) {
        long total = (long) op.n() * op.x().cols();
        launch(
                Kernel.VECTOR_ADD_F32,
                covering(total),
                KernelArgs.of()
                        .pointer(op.x().buffer)
                        .pointer(op.y().buffer)
                        .pointer(op.x().buffer)
                        .i32(Math.toIntExact(total)));
    }

    void swiGlu(SwiGlu op) {
        int f = op.out().cols();
        long total = (long) op.n() * f;
        if (op.quantize()) {
            launch(
                    Kernel.SWIGLU_Q8,
                    covering(total),
                    q8Args(KernelArgs.of().pointer(op.gateUp().buffer).pointer(op.out().buffer))
                            .i32(f)
                            .i32(Math.toIntExact(total)));
            return;
        }
        launch(
                Kernel.SWIGLU_F32,
                covering(total),
                KernelArgs.of()
                        .pointer(op.gateUp().buffer)
                        .pointer(op.out().buffer)
                        .i32(f)
                        .i32(Math.toIntExact(total)));
    }

    void gather(Gather op) {
        int cols = op.x().cols();
        long total = (long) op.n() * cols;
        KernelArgs args = KernelArgs.of()
                .pointer(op.x().buffer)
                .pointer(meta.buffer(), meta.offset(Region.INTS) + 4L * op.offset());
        launch(
                Kernel.GATHER_ROWS_F32,
                covering(total),
                args.pointer(op.out().buffer).i32(cols).i32(Math.toIntExact(total)));
    }

    void rope(RotaryEmbedding op) {
        KernelArgs args = KernelArgs.of()
                .pointer(op.x().buffer)
                .i32(op.x().cols())
                .i32(op.col())
                .i32(op.heads())
                .i32(op.headDim())
                .i32(op.table().dims())
                .i32(op.style() == Rope.Style.NEOX ? 1 : 0);
        metaArg(args, Region.POSITIONS).pointer(op.table().buffer());
        long work = (long) op.heads() * (op.table().dims() / 2);
        if (op.kv() != null) {
            AttentionShape s = op.shape();
            args.i32(s.keyCol()).i32(s.valueCol()).i32(s.kvDim());
            metaArg(args, Region.SLOTS).pointer(op.kv().keys[op.layer()]).pointer(op.kv().values[op.layer()]);
            work += s.kvDim() + (long) s.kvHeads() * (s.headDim() - op.table().dims());
        } else {
            args.i32(0).i32(0).i32(0).i64(0).i64(0).i64(0);
        }
        int blocks = Math.toIntExact((work + THREADS - 1) / THREADS);
        launch(Kernel.ROPE_F32, new LaunchConfig(op.n(), blocks, 1, THREADS, 1, 1, 0), args);
    }

    void attention(Attention op) {
        AttentionShape s = op.shape();
        GpuKvStorage kv = op.kv();
        int n = op.n();
        int splits = op.splits();
        if (!op.kvWritten()) {
            launch(
                    Kernel.KV_WRITE_F16,
                    LaunchConfig.of(n, 128),
                    metaArg(
                                    KernelArgs.of()
                                            .pointer(op.qkv().buffer)
                                            .i32(op.qkv().cols())
                                            .i32(s.keyCol())
                                            .i32(s.valueCol())
                                            .i32(s.kvDim()),
                                    Region.SLOTS)
                            .pointer(kv.keys[op.layer()])
                            .pointer(kv.values[op.layer()]));
        }
        LaunchConfig grid = new LaunchConfig(s.kvHeads(), n, splits, ATTENTION_THREADS, 1, 1, 0);
        LaunchConfig perHead = new LaunchConfig(s.heads(), n, 1, Math.min(256, (s.headDim() + 31) / 32 * 32), 1, 1, 0);
        if (op.tiles() > 0) {
            KernelArgs args = rowArgs(op, true);
            metaArg(args, Region.TILES)
                    .pointer(op.out().buffer)
                    .i32(op.out().cols())
                    .i32(s.heads())
                    .i32(s.kvHeads())
                    .i32(kv.blockSize())
                    .f32(s.scale())
                    .i32(s.causal() ? 1 : 0)
                    .i32(s.slidingWindow());
            launch(
                    tiledAttentionKernel(s),
                    new LaunchConfig(s.kvHeads(), op.tiles(), 1, ATTENTION_THREADS, 1, 1, 0),
                    args);
            return;
        }
        Kernel[] exact = exactAttentionKernels(s);
        if (exact == null) {
            // the general kernel: online softmax, weights not rounded to half
            KernelArgs args =
                    rowArgs(op, true).pointer(op.out().buffer).i32(op.out().cols());
            pointerOrNull(args, splits > 1 ? scratch.get(Slot.ATTENTION) : null);
            args.i32(s.heads())
                    .i32(s.kvHeads())
                    .i32(s.headDim())
                    .i32(kv.blockSize())
                    .f32(s.scale())
                    .i32(s.causal() ? 1 : 0)
                    .i32(s.slidingWindow())
                    .i32(splits);
            launch(Kernel.ATTENTION_F16, grid, args);
            if (splits > 1) {
                KernelArgs c = KernelArgs.of().pointer(scratch.get(Slot.ATTENTION));
                metaArg(c, Region.SLOTS)
                        .pointer(op.out().buffer)
                        .i32(op.out().cols())
                        .i32(s.heads())
                        .i32(s.headDim())
                        .i32(splits);
                launch(Kernel.ATTENTION_COMBINE, perHead, c);
            }
            return;
        }
        if (splits > 1) {
            KernelArgs st = rowArgs(op, false)
                    .pointer(scratch.get(Slot.ATTENTION_STATS))
                    .i32(s.heads())
                    .i32(s.kvHeads())
                    .i32(kv.blockSize())
                    .f32(s.scale())
                    .i32(s.causal() ? 1 : 0)
                    .i32(s.slidingWindow())
                    .i32(splits);
            launch(exact[1], grid, st);
        }
        KernelArgs args =
                rowArgs(op, true).pointer(op.out().buffer).i32(op.out().cols());
        pointerOrNull(args, splits > 1 ? scratch.get(Slot.ATTENTION) : null);
        pointerOrNull(args, splits > 1 ? scratch.get(Slot.ATTENTION_STATS) : null);
        args.i32(s.heads())
                .i32(s.kvHeads())
                .i32(kv.blockSize())
                .f32(s.scale())
                .i32(s.causal() ? 1 : 0)
                .i32(s.slidingWindow())
                .i32(splits);
        launch(exact[0], grid, args);
        if (splits > 1) {
            KernelArgs c = KernelArgs.of().pointer(scratch.get(Slot.ATTENTION));
            metaArg(c, Region.SLOTS)
                    .pointer(op.out().buffer)
                    .i32(op.out().cols())
                    .i32(s.heads())
                    .i32(s.headDim())
                    .i32(splits);
            launch(Kernel.ATTENTION_SUM, perHead, c);
        }
    }

    /** qkv, its row stride, the cache (keys, and values when asked), then the batch metadata the attention kernels read. */
    private KernelArgs rowArgs(Attention op, boolean values) {
        KernelArgs args =
                KernelArgs.of().pointer(op.qkv().buffer).i32(op.qkv().cols()).pointer(op.kv().keys[op.layer()]);
        if (values) {
            args.pointer(op.kv().values[op.layer()]);
        }
        metaArg(args, Region.POSITIONS);
        metaArg(args, Region.SLOTS);
        metaArg(args, Region.TABLE_OFFSETS);
        metaArg(args, Region.SEQ_LAST);
        return metaArg(args, Region.TABLES);
    }

    private static void pointerOrNull(KernelArgs args, DeviceBuffer b) {
        if (b != null) {
            args.pointer(b);
        } else {
            args.i64(0);
        }
    }

    /** Query vectors (rows x query heads of a kv head) per tile: must match LS_TILE_Q in attention.hip. */
    static final int TILE_QUERIES = 64;

    /** The tiled prompt kernel for a shape, or null (more than 8 query heads per kv head, heads wider than 128). */
    static Kernel tiledAttentionKernel(AttentionShape s) {
        if (s.heads() / s.kvHeads() > DECODE_ATTENTION_MAX_GROUP) {
            return null;
        }
        return switch (s.headDim()) {
            case 8 -> Kernel.ATTENTION_TILE_D8;
            case 16 -> Kernel.ATTENTION_TILE_D16;
            case 32 -> Kernel.ATTENTION_TILE_D32;
            case 64 -> Kernel.ATTENTION_TILE_D64;
            case 96 -> Kernel.ATTENTION_TILE_D96;
            case 128 -> Kernel.ATTENTION_TILE_D128;
            default -> null;
        };
    }

    /**
     * The attention kernels that round softmax weights as the CPU backend does ({values, stats}),
     * for the head sizes they are built for and at most {@link #DECODE_ATTENTION_MAX_GROUP} query
     * heads per kv head; null for the general kernel.
     */
    static Kernel[] exactAttentionKernels(AttentionShape s) {
        if (s.heads() / s.kvHeads() > DECODE_ATTENTION_MAX_GROUP) {
            return null;
        }
        return switch (s.headDim()) {
            case 8 -> new Kernel[] {Kernel.ATTENTION_F16_D8, Kernel.ATTENTION_STATS_D8};
            case 16 -> new Kernel[] {Kernel.ATTENTION_F16_D16, Kernel.ATTENTION_STATS_D16};
            case 32 -> new Kernel[] {Kernel.ATTENTION_F16_D32, Kernel.ATTENTION_STATS_D32};
            case 64 -> new Kernel[] {Kernel.ATTENTION_F16_D64, Kernel.ATTENTION_STATS_D64};
            case 96 -> new Kernel[] {Kernel.ATTENTION_F16_D96, Kernel.ATTENTION_STATS_D96};
            case 128 -> new Kernel[] {Kernel.ATTENTION_F16_D128, Kernel.ATTENTION_STATS_D128};
            case 256 -> new Kernel[] {Kernel.ATTENTION_F16_D256, Kernel.ATTENTION_STATS_D256};
            default -> null;
        };
    }

    void gelu(DeviceOp.Gelu op) {
        long total = (long) op.n() * op.x().cols();
        launch(
                Kernel.GELU_F32,
                covering(total),
                KernelArgs.of().pointer(op.x().buffer).i32(Math.toIntExact(total)));
    }

    void pool(DeviceOp.Pool op) {
        int cols = op.x().cols();
        KernelArgs args = KernelArgs.of()
                .pointer(op.x().buffer)
                .pointer(meta.buffer(), meta.offset(Region.INTS) + 4L * op.offset())
                .pointer(op.out().buffer)
                .i32(cols)
                .i32(op.mode());
        launch(
                Kernel.POOL_F32,
                new LaunchConfig(op.sequences(), (cols + THREADS - 1) / THREADS, 1, THREADS, 1, 1, 0),
                args);
    }

    void encoderAttention(DeviceOp.EncoderAttention op) {
        AttentionShape s = op.shape();
        KernelArgs args = KernelArgs.of()
                .pointer(op.qkv().buffer)
                .i32(op.qkv().cols())
                .pointer(meta.buffer(), meta.offset(Region.INTS) + 4L * op.offset())
                .i32(op.sequences())
                .pointer(op.out().buffer)
                .i32(op.out().cols())
                .i32(s.heads())
                .i32(s.kvHeads())
                .i32(s.headDim())
                .i32(s.keyCol())
                .i32(s.valueCol())
                .f32(s.scale());
        Kernel tiled =
                switch (s.headDim()) {
                    case 32 -> Kernel.ENCODER_ATTENTION_D32;
                    case 64 -> Kernel.ENCODER_ATTENTION_D64;
                    case 128 -> Kernel.ENCODER_ATTENTION_D128;
                    default -> null;
                };
        if (tiled != null) {
            // a block per head, sequence and ENCODER_QUERIES positions of it (blocks past a short span return at once)
            int tiles = (op.longest() + ENCODER_QUERIES - 1) / ENCODER_QUERIES;
            launch(tiled, new LaunchConfig(s.heads(), op.sequences(), tiles, ENCODER_THREADS, 1, 1, 0), args);
        } else {
            launch(
                    Kernel.ENCODER_ATTENTION_F32,
                    new LaunchConfig(s.heads(), op.rows(), 1, ENCODER_THREADS, 1, 1, 0),
                    args);
        }
    }

    void topK(TopK op) {
        launch(
                Kernel.TOPK_F32,
                LaunchConfig.of(op.n(), TOPK_THREADS),
                KernelArgs.of()
                        .pointer(op.x().buffer)
                        .i32(op.x().cols())
                        .i32(op.k())
                        .pointer(scratch.get(Slot.TOPK_IDS))
                        .pointer(scratch.get(Slot.TOPK_VALUES)));
    }

    /** Which rounding of the activations is in the scratch buffers, so fused bands share it. */
    private enum Prepared {
        NONE,
        Q8_0_INT,
        Q8_0_FLOAT,
        Q8_K_FLOAT,
        Q8_0_HALF,
        Q8_K_HALF,
        PLAIN_HALF
    }

    void matmul(Matmul op) {
        GpuWeight w = op.weight();
        int k = w.cols();
        int n = op.n();
        Prepared prepared = op.prequantized() ? Prepared.Q8_0_INT : Prepared.NONE;
        for (GpuWeight.Band band : w.bands) {
            long yOffset = band.firstRow() * Float.BYTES;
            WeightFormat f = band.format();
            if (op.blas()) {
                prepared = blas(op, band, f, prepared, yOffset);
                continue;
            }
            Prepared wanted = f.integerGemv()
                    ? Prepared.Q8_0_INT
                    : switch (band.activation()) {
                        case Q8_0 -> Prepared.Q8_0_FLOAT;
                        case Q8_K -> Prepared.Q8_K_FLOAT;
                        case FLOAT -> Prepared.NONE;
                    };
            if (wanted != Prepared.NONE && wanted != prepared) {
                prepare(op, wanted);
                prepared = wanted;
            }
            int rows = Math.toIntExact(band.rows());
            for (int c0 = 0; c0 < n; c0 += WeightFormat.MAX_GEMV_COLUMNS) {
                int cols = Math.min(WeightFormat.MAX_GEMV_COLUMNS, n - c0);
                LaunchConfig grid = LaunchConfig.of((rows + gemvRows(cols) - 1) / gemvRows(cols), GEMV_THREADS);
                KernelArgs args = KernelArgs.of().pointer(band.data()).pointer(band.data(), band.scalesOffset());
                if (f.integerGemv()) {
                    args.pointer(scratch.get(Slot.XQ), (long) c0 * k)
                            .pointer(scratch.get(Slot.XD), (long) c0 * (k / 32) * Float.BYTES)
                            .pointer(scratch.get(Slot.XS), (long) c0 * (k / 32) * Integer.BYTES);
                } else if (band.activation() != WeightFormat.Activation.FLOAT) {
                    args.pointer(scratch.get(Slot.XF), (long) c0 * k * Float.BYTES);
                } else {
                    args.pointer(op.x().buffer, (long) c0 * k * Float.BYTES);
                }
                args.pointer(op.out().buffer, (long) c0 * op.out().cols() * Float.BYTES + yOffset)
                        .i32(rows)
                        .i32(k)
                        .i32(op.out().cols())
                        .i32(0);
                launch(f.gemvKernel(cols), grid, args);
            }
        }
    }

    private void prepare(Matmul op, Prepared p) {
        int total = Math.multiplyExact(op.n(), op.weight().cols());
        DeviceBuffer x = op.x().buffer;
        switch (p) {
            case Q8_0_INT ->
                launch(
                        Kernel.QUANTIZE_Q8_0,
                        covering(total),
                        KernelArgs.of()
                                .pointer(x)
                                .pointer(scratch.get(Slot.XQ))
                                .pointer(scratch.get(Slot.XD))
                                .pointer(scratch.get(Slot.XS))
                                .i32(total));
            case Q8_0_FLOAT ->
                launch(
                        Kernel.QUANTIZE_Q8_0_F32,
                        covering(total),
                        KernelArgs.of().pointer(x).pointer(scratch.get(Slot.XF)).i32(total));
            case Q8_K_FLOAT ->
                launch(
                        Kernel.QUANTIZE_Q8_K,
                        LaunchConfig.of(total / 256, 256),
                        KernelArgs.of()
                                .pointer(x)
                                .pointer(scratch.get(Slot.XF))
                                .i64(0)
                                .i32(total));
            case Q8_0_HALF ->
                launch(
                        Kernel.QUANTIZE_Q8_0_F16,
                        covering(total),
                        KernelArgs.of().pointer(x).pointer(scratch.get(Slot.XH)).i32(total));
            case Q8_K_HALF ->
                launch(
                        Kernel.QUANTIZE_Q8_K,
                        LaunchConfig.of(total / 256, 256),
                        KernelArgs.of()
                                .pointer(x)
                                .i64(0)
                                .pointer(scratch.get(Slot.XH))
                                .i32(total));
            case PLAIN_HALF ->
                launch(
                        Kernel.F32_TO_F16,
                        covering(total),
                        KernelArgs.of().pointer(x).pointer(scratch.get(Slot.XH)).i32(total));
            case NONE -> {}
        }
    }

    /**
     * Row-major {@code out[t][r] = sum_k W[r][k] x[t][k]} through column-major BLAS: {@code out^T = W x^T},
     * W (band rows x k, row-major) as op(A) = A^T with lda = k, x^T as B (k x n, ldb = k).
     */
    private Prepared blas(Matmul op, GpuWeight.Band band, WeightFormat f, Prepared prepared, long yOffset) {
        int k = op.weight().cols();
        int n = op.n();
        int rows = Math.toIntExact(band.rows());
        int ldc = op.out().cols();
        var blas = stream.blas();
        if (f == WeightFormat.F32) {
            blas.gemm(
                    Transpose.TRANSPOSE,
                    Transpose.NONE,
                    rows,
                    n,
                    k,
                    1f,
                    band.data(),
                    0,
                    BlasType.F32,
                    k,
                    op.x().buffer,
                    0,
                    BlasType.F32,
                    k,
                    0f,
                    op.out().buffer,
                    yOffset,
                    BlasType.F32,
                    ldc);
            return prepared;
        }
        Prepared wanted =
                switch (band.activation()) {
                    case Q8_0 -> Prepared.Q8_0_HALF;
                    case Q8_K -> Prepared.Q8_K_HALF;
                    case FLOAT -> Prepared.PLAIN_HALF;
                };
        if (wanted != prepared) {
            prepare(op, wanted);
        }
        DeviceBuffer xh = scratch.get(Slot.XH);
        if (f == WeightFormat.F16 || band.half() != null) {
            DeviceBuffer a = f == WeightFormat.F16 ? band.data() : band.half();
            blas.gemm(
                    Transpose.TRANSPOSE,
                    Transpose.NONE,
                    rows,
                    n,
                    k,
                    1f,
                    a,
                    0,
                    BlasType.F16,
                    k,
                    xh,
                    0,
                    BlasType.F16,
                    k,
                    0f,
                    op.out().buffer,
                    yOffset,
                    BlasType.F32,
                    ldc);
            return wanted;
        }
        DeviceBuffer deq = scratch.get(Slot.WDEQ);
        int bandRows = dequantRows(k, rows, dequantBandBytes);
        for (int r0 = 0; r0 < rows; r0 += bandRows) {
            int r = Math.min(bandRows, rows - r0);
            launch(
                    f.dequantF16Kernel(),
                    covering((long) r * k / 8),
                    KernelArgs.of()
                            .pointer(band.data())
                            .pointer(band.data(), band.scalesOffset())
                            .pointer(deq)
                            .i32(r0)
                            .i32(r)
                            .i32(k));
            blas.gemm(
                    Transpose.TRANSPOSE,
                    Transpose.NONE,
                    r,
                    n,
                    k,
                    1f,
                    deq,
                    0,
                    BlasType.F16,
                    k,
                    xh,
                    0,
                    BlasType.F16,
                    k,
                    0f,
                    op.out().buffer,
                    yOffset + (long) r0 * Float.BYTES,
                    BlasType.F32,
                    ldc);
        }
        return wanted;
    }

    /** Rows of a weight of row length k dequantized per BLAS call: a multiple of 64 fitting the band size. */
    static int dequantRows(int k, int rows, long bandBytes) {
        long fit = Math.max(64, bandBytes / ((long) k * 2) / 64 * 64);
        return (int) Math.min(rows, fit);
    }
}
