package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_ATT_MAX_SPLITS;
import static com.llmserve.kernels.KernelConstants.LS_ATT_SPLIT_STATS;
import static com.llmserve.kernels.KernelConstants.LS_ATT_THREADS;
import static com.llmserve.kernels.KernelConstants.LS_DEC_MAX_GROUP;
import static com.llmserve.kernels.KernelConstants.LS_DEC_PART_HEADS;
import static com.llmserve.kernels.KernelConstants.LS_DMMA_HEADS;
import static com.llmserve.kernels.KernelConstants.LS_QK;

import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.gpu.Scratch.Slot;
import com.llmserve.engine.backend.gpu.StepMeta.Region;
import com.llmserve.gpu.DeviceBuffer;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.kernels.Kernel;

/**
 * Paged attention of a step's rows: each row's keys and values go to the cache, then its query
 * heads attend to its sequence's positions.
 *
 * @param splits    position splits per row (flash-decoding); 1 writes the output directly
 * @param parts     blocks per kv head of the per-head-size kernels ({@link #headParts})
 * @param kvWritten the rope before it already wrote this step's keys and values
 * @param tiles     prompt tiles of the tiled kernel (listed in the step's metadata); 0 for the per-row kernels
 * @param sinks     the shape's attention sinks on the device (one float per query head), or null
 * @param tensorCores the device runs half-precision tensor-core products (NVIDIA sm_80 on): prompt
 *                  tiles and decode rows of the head sizes that have them take the tensor-core kernels
 * @param quantize  also write the Q8_0 form of {@code out} for the product that follows (fused)
 * @param twoRounds the tensor-core decode kernels over an F16 cache load a round ahead ({@link
 *                  #TWO_ROUNDS_MIN_ROWS} rows and more, and not batch-invariant: a row alone takes one round)
 */
record Attention(
        GpuActivations qkv,
        GpuKvStorage kv,
        int layer,
        AttentionShape shape,
        int splits,
        int parts,
        int n,
        GpuActivations out,
        boolean kvWritten,
        int tiles,
        DeviceBuffer sinks,
        boolean tensorCores,
        boolean quantize,
        boolean twoRounds)
        implements DeviceOp {

    /**
     * Blocks per multiprocessor that {@link #splits} aims for on the CUDA-core kernel: as many as are
     * resident at once (it takes 125 registers a lane on sm_90: four blocks of 128 lanes).
     */
    static final int BLOCKS_PER_MULTIPROCESSOR = 4;

    /**
     * Splits of a row alone on tensor cores: at 8,192 positions 23.5 us a layer in 16 against 35.4 in
     * 32, at 512 (where 16 splits of 32 positions are used) 9.7 against 10.6 (H200, 8B shape, two
     * heads a block).
     */
    static final int ONE_ROW_TENSOR_CORE_SPLITS = 16;

    /**
     * Position splits per row for the per-row kernels, at least one and at most {@code
     * LS_ATT_MAX_SPLITS}. On CUDA cores the most that keep a step's blocks (rows x kv heads x splits)
     * within one round of {@link #BLOCKS_PER_MULTIPROCESSOR} a multiprocessor; on tensor cores
     * ({@code tensorCores}: the step takes ls_attention_dmma_d*), whose blocks are done with their
     * positions sooner, about one block a multiprocessor, and {@link #ONE_ROW_TENSOR_CORE_SPLITS} for
     * one row. Measured on an H200 (bench/kernels attention lab, 8 kv heads, us a layer at 160 / 512
     * / 1000 positions): on CUDA cores 16 rows 16.1 / 33.0 / 56.2 in four splits against 18.4 / 37.4
     * / 62.7 in three, 32 rows 24.5 / 57.3 / 97.2 in two against 28.2 / 76.8 / 143 in one, 64 rows
     * 36.2 / 94.4 / 172 in one against 43.1 / 108 / 186 in two; on tensor cores 4 rows 9.0 / 11.5 /
     * 15.3 in four splits against 11.3 / 13.6 / 16.2 in eight, 16 rows 10.2 / 18.8 / 30.6 in one
     * against 19.8 / 29.6 / 41.2 in four, 32 rows 14.0 / 26.7 / 41.8 in one against 27.0 / 42.6 /
     * 61.4 in two.
     */
    static int splits(int multiprocessors, int kvHeads, int rows, boolean tensorCores) {
        int splits = rows == 1 && tensorCores
                ? ONE_ROW_TENSOR_CORE_SPLITS
                : (tensorCores ? 1 : BLOCKS_PER_MULTIPROCESSOR) * multiprocessors / (kvHeads * rows);
        return Math.max(1, Math.min(LS_ATT_MAX_SPLITS, splits));
    }

    /**
     * The most rows a step split into several parts can have on either kernel: {@link #splits} is 1
     * beyond them. The arrival counters are sized for as many once, so their size does not depend on
     * which steps the schedule happened to form (a rare step of 65 rows grew them after a device's
     * idle memory was taken; GpuFaultTests). The batch-invariant mode splits every row as a row alone,
     * so there they still grow with the rows.
     */
    static int splitRows(int multiprocessors, int kvHeads) {
        return Math.max(1, BLOCKS_PER_MULTIPROCESSOR * multiprocessors / (2 * kvHeads));
    }

    /**
     * Query heads per block of the split kernel when a step has one row: two, whose chains are
     * shorter than four heads' (measured on an H200 in bench/kernels' attention lab: 1.3 us a layer
     * at 128 positions), where at 16 rows and more the extra blocks cost more than they save.
     */
    static final int ONE_ROW_PART_HEADS = 2;

    /**
     * Blocks per kv head of the per-head-size kernels ({@code head_parts}) for {@code rows} rows: the
     * fewest equal parts of a kv head's query heads that each have at most {@code LS_DEC_PART_HEADS}
     * (a block's registers hold that many heads' sums), or {@link #ONE_ROW_PART_HEADS} at one row,
     * whose chains are then shorter (on either kernel: on tensor cores 6.6 us a layer at 128 positions
     * in parts of two heads against 8.3 in one, H200); from two rows on, one on tensor cores, where
     * the heads are rows of one product. A head's arithmetic is the same in any part, so the parts
     * never change a result.
     */
    static int headParts(AttentionShape s, int rows, boolean tensorCores) {
        int group = s.heads() / s.kvHeads();
        if (rows > 1 && tensorCores && decodeOnTensorCores(s)) {
            return 1; // every head of a group is a row of one score tile (LS_DMMA_HEADS)
        }
        int perPart = rows == 1 ? ONE_ROW_PART_HEADS : LS_DEC_PART_HEADS;
        int parts = 1;
        while (group % parts != 0 || group / parts > perPart) {
            parts++;
        }
        return parts;
    }

    /** The head sizes whose kernels read a Q8_0 cache (whole blocks of 32), for messages. */
    static final String Q8_HEAD_SIZES = "32, 64, 96, 128 or 256";

    /**
     * Whether a Q8_0 cache has kernels for this shape: the per-head-size ones (there is no general
     * Q8_0 kernel), for head sizes that are whole Q8_0 blocks.
     */
    static boolean readsQ8(int heads, int kvHeads, int headDim) {
        return heads / kvHeads <= LS_DEC_MAX_GROUP && q8Kernel(headDim) != null;
    }

    /**
     * The tiled prompt kernel for a shape and cache type, or null (more than 8 query heads per kv
     * head, heads wider than 128): on tensor cores for heads of 64 and 128 where the device has them.
     */
    static Kernel tiledKernel(AttentionShape s, boolean tensorCores, boolean q8) {
        if (s.heads() / s.kvHeads() > LS_DEC_MAX_GROUP) {
            return null;
        }
        if (tensorCores && s.headDim() == 64) {
            return q8 ? Kernel.ATTENTION_MMA_Q8_D64 : Kernel.ATTENTION_MMA_D64;
        }
        if (tensorCores && s.headDim() == 128) {
            return q8 ? Kernel.ATTENTION_MMA_Q8_D128 : Kernel.ATTENTION_MMA_D128;
        }
        if (q8) {
            return switch (s.headDim()) {
                case 32 -> Kernel.ATTENTION_TILE_Q8_D32;
                case 64 -> Kernel.ATTENTION_TILE_Q8_D64;
                case 96 -> Kernel.ATTENTION_TILE_Q8_D96;
                case 128 -> Kernel.ATTENTION_TILE_Q8_D128;
                default -> null;
            };
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
     * Rows from which the decode kernels on tensor cores over an F16 cache load a round's keys and
     * values while multiplying the round before ({@code ls_attention_dmma2_d*}: two blocks a
     * multiprocessor instead of three). H200, 8B shape, one split ({@code bench/kernels/run.sh
     * attention}, {@code MANY_ROWS=1}, us a layer at 160 / 512 / 1000 positions): 64 rows 30.1 / 57.2
     * / 92.0 -> 26.3 / 48.9 / 77.3, 16 rows 10.2 / 18.8 / 30.4 -> 9.9 / 17.6 / 27.6, 32 rows 14.0 /
     * 26.9 / 41.9 -> 14.5 / 26.8 / 41.6; one row (16 splits of two heads) at 128 positions 6.63 ->
     * 6.80, where the one-round kernel stays. The Q8_0 cache's kernel would spill with two rounds.
     */
    static final int TWO_ROUNDS_MIN_ROWS = 16;

    /**
     * Whether the decode kernels on tensor cores (ls_attention_dmma_d*) take this shape where the
     * device has them: heads of 64 and 128, at most {@code LS_DMMA_HEADS} query heads per kv head.
     */
    static boolean decodeOnTensorCores(AttentionShape s) {
        return (s.headDim() == 64 || s.headDim() == 128) && s.heads() / s.kvHeads() <= LS_DMMA_HEADS;
    }

    /**
     * The per-head-size kernel for the head sizes it is built for and at most {@code
     * LS_DEC_MAX_GROUP} query heads per kv head, on tensor cores where the device has them and the
     * shape is one {@link #decodeOnTensorCores} takes (with loads a round ahead over an F16 cache
     * where {@code twoRounds}); null for the general kernel (which reads F16 only).
     */
    static Kernel headSizeKernel(AttentionShape s, boolean q8, boolean tensorCores, boolean twoRounds) {
        if (s.heads() / s.kvHeads() > LS_DEC_MAX_GROUP) {
            return null;
        }
        if (tensorCores && decodeOnTensorCores(s)) {
            if (!q8 && twoRounds) {
                return s.headDim() == 64 ? Kernel.ATTENTION_DMMA2_D64 : Kernel.ATTENTION_DMMA2_D128;
            }
            return s.headDim() == 64
                    ? (q8 ? Kernel.ATTENTION_DMMA_Q8_D64 : Kernel.ATTENTION_DMMA_D64)
                    : (q8 ? Kernel.ATTENTION_DMMA_Q8_D128 : Kernel.ATTENTION_DMMA_D128);
        }
        if (q8) {
            return q8Kernel(s.headDim());
        }
        return switch (s.headDim()) {
            case 8 -> Kernel.ATTENTION_SPLIT_D8;
            case 16 -> Kernel.ATTENTION_SPLIT_D16;
            case 32 -> Kernel.ATTENTION_SPLIT_D32;
            case 64 -> Kernel.ATTENTION_SPLIT_D64;
            case 96 -> Kernel.ATTENTION_SPLIT_D96;
            case 128 -> Kernel.ATTENTION_SPLIT_D128;
            case 256 -> Kernel.ATTENTION_SPLIT_D256;
            default -> null;
        };
    }

    private static Kernel q8Kernel(int headDim) {
        return switch (headDim) {
            case 32 -> Kernel.ATTENTION_SPLIT_Q8_D32;
            case 64 -> Kernel.ATTENTION_SPLIT_Q8_D64;
            case 96 -> Kernel.ATTENTION_SPLIT_Q8_D96;
            case 128 -> Kernel.ATTENTION_SPLIT_Q8_D128;
            case 256 -> Kernel.ATTENTION_SPLIT_Q8_D256;
            default -> null;
        };
    }

    @Override
    public void reserve(Workspace w) {
        if (splits > 1) {
            // rows x splits stays within BLOCKS_PER_MULTIPROCESSOR x multiprocessors / kv heads
            // (rows alone where there is one split): sized once for every bucket
            long units = Math.max(
                    (long) n * splits,
                    (long) BLOCKS_PER_MULTIPROCESSOR * w.device().info().multiprocessors() / shape.kvHeads()
                            + w.options().maxGraphRows());
            w.reserve(Slot.ATTENTION, units * shape.heads() * (shape.headDim() + LS_ATT_SPLIT_STATS) * Float.BYTES);
            w.reserve(
                    Slot.ATTENTION_ARRIVALS,
                    (long) Math.max(
                                    n,
                                    Math.max(
                                            w.options().maxGraphRows(),
                                            splitRows(w.device().info().multiprocessors(), shape.kvHeads())))
                            * shape.kvHeads()
                            * headParts(shape, 1, false)
                            * Integer.BYTES);
        }
    }

    @Override
    public boolean graphable() {
        return tiles == 0;
    }

    /** This attention without its own cache write: the rope before it writes keys and values. */
    Attention afterCacheWrite() {
        return new Attention(
                qkv, kv, layer, shape, splits, parts, n, out, true, tiles, sinks, tensorCores, quantize, twoRounds);
    }

    /**
     * Whether this attention can also write its output's Q8_0 form: the per-head-size kernels of
     * decode rows do, where each block's heads are whole blocks of 32 values ({@code ls_dec_finish}).
     */
    boolean canQuantize() {
        int blockValues = shape.heads() / shape.kvHeads() / parts * shape.headDim();
        return tiles == 0
                && headSizeKernel(shape, kv.q8(), tensorCores, twoRounds) != null
                && blockValues % LS_QK == 0
                && out.cols() % LS_QK == 0;
    }

    /** This attention writing its output's Q8_0 form too, for the product that reads it. */
    Attention quantizing() {
        return new Attention(
                qkv, kv, layer, shape, splits, parts, n, out, kvWritten, tiles, sinks, tensorCores, true, twoRounds);
    }

    @Override
    public void launch(Launch l) {
        AttentionShape s = shape;
        if (!kvWritten) {
            KernelArgs write = KernelArgs.of()
                    .pointer(qkv.buffer)
                    .i32(qkv.cols())
                    .i32(s.keyCol())
                    .i32(s.valueCol())
                    .i32(s.kvDim());
            l.meta(write, Region.slots(kv.groupOf(layer)));
            cache(write);
            l.kernel(kv.q8() ? Kernel.KV_WRITE_Q8 : Kernel.KV_WRITE_F16, LaunchConfig.of(n, 128), write);
        }
        LaunchConfig grid = new LaunchConfig(s.kvHeads(), n, splits, LS_ATT_THREADS, 1, 1, 0);
        if (tiles > 0) {
            KernelArgs args = rowArgs(l);
            l.meta(args, Region.TILES)
                    .pointer(out.buffer)
                    .i32(out.cols())
                    .i32(s.heads())
                    .i32(s.kvHeads())
                    .i32(kv.blockSize())
                    .f32(s.cappedScale())
                    .f32(s.softcap());
            pointerOrNull(args, sinks).i32(s.causal() ? 1 : 0).i32(s.slidingWindow());
            l.kernel(
                    tiledKernel(s, tensorCores, kv.q8()),
                    new LaunchConfig(s.kvHeads(), tiles, 1, LS_ATT_THREADS, 1, 1, 0),
                    args);
            return;
        }
        DeviceBuffer partials = splits > 1 ? l.scratch(Slot.ATTENTION) : null;
        Kernel kernel = headSizeKernel(s, kv.q8(), tensorCores, twoRounds);
        if (kernel == null && kv.q8()) {
            // refused at load (GpuBackend.checkKvCacheShape): only a caller past that check gets here
            throw new GpuBackendException("no q8_0 KV cache kernel for " + s.heads() + "/" + s.kvHeads() + " heads of "
                    + s.headDim() + " (heads of " + Q8_HEAD_SIZES + ")");
        }
        if (kernel == null) {
            // the general kernel: online softmax, weights not rounded to half
            KernelArgs args = rowArgs(l).pointer(out.buffer).i32(out.cols());
            pointerOrNull(args, partials)
                    .i32(s.heads())
                    .i32(s.kvHeads())
                    .i32(s.headDim())
                    .i32(kv.blockSize())
                    .f32(s.cappedScale())
                    .f32(s.softcap());
            pointerOrNull(args, sinks)
                    .i32(s.causal() ? 1 : 0)
                    .i32(s.slidingWindow())
                    .i32(splits);
            l.kernel(Kernel.ATTENTION_F16, grid, args);
            if (splits > 1) {
                LaunchConfig perHead =
                        new LaunchConfig(s.heads(), n, 1, Math.min(256, (s.headDim() + 31) / 32 * 32), 1, 1, 0);
                l.kernel(Kernel.ATTENTION_COMBINE, perHead, pointerOrNull(combineArgs(l, partials), sinks));
            }
            return;
        }
        // one launch: with several splits the last split of each row and part to finish merges them
        KernelArgs args = rowArgs(l).pointer(out.buffer).i32(out.cols());
        pointerOrNull(args, partials);
        pointerOrNull(args, splits > 1 ? l.scratch(Slot.ATTENTION_ARRIVALS) : null);
        args.i32(s.heads())
                .i32(s.kvHeads())
                .i32(kv.blockSize())
                .f32(s.cappedScale())
                .f32(s.softcap());
        pointerOrNull(args, sinks)
                .i32(s.causal() ? 1 : 0)
                .i32(s.slidingWindow())
                .i32(splits)
                .i32(parts);
        if (quantize) {
            l.q8(args, 0, out.cols());
        } else {
            args.nullPointer().nullPointer().nullPointer();
        }
        l.kernel(kernel, new LaunchConfig(s.kvHeads() * parts, n, splits, LS_ATT_THREADS, 1, 1, 0), args);
    }

    /** The cache's keys and values (F16), or keys, their scales, values and theirs (Q8_0). */
    private KernelArgs cache(KernelArgs args) {
        args.pointer(kv.keys[layer]);
        if (kv.q8()) {
            args.pointer(kv.keyScales[layer]);
        }
        args.pointer(kv.values[layer]);
        return kv.q8() ? args.pointer(kv.valueScales[layer]) : args;
    }

    /** qkv, its row stride, the cache, then the batch metadata the kernels read. */
    private KernelArgs rowArgs(Launch l) {
        KernelArgs args = cache(KernelArgs.of().pointer(qkv.buffer).i32(qkv.cols()));
        int group = kv.groupOf(layer);
        l.meta(args, Region.POSITIONS);
        l.meta(args, Region.slots(group));
        l.meta(args, Region.TABLE_OFFSETS);
        l.meta(args, Region.SEQ_LAST);
        return l.meta(args, Region.tables(group));
    }

    private KernelArgs combineArgs(Launch l, DeviceBuffer partials) {
        KernelArgs c = KernelArgs.of().pointer(partials);
        return l.meta(c, Region.SLOTS)
                .pointer(out.buffer)
                .i32(out.cols())
                .i32(shape.heads())
                .i32(shape.headDim())
                .i32(splits);
    }

    private static KernelArgs pointerOrNull(KernelArgs args, DeviceBuffer b) {
        return b != null ? args.pointer(b) : args.nullPointer();
    }

    @Override
    public String profileKey() {
        return "attention " + shape.heads() + "/" + shape.kvHeads() + "x" + shape.headDim() + " n=" + n
                + (tiles > 0 ? " tiles=" + tiles : " splits=" + splits) + (quantize ? "+q8" : "");
    }
}
