package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_ATT_MAX_SPLITS;
import static com.llmserve.kernels.KernelConstants.LS_ATT_SPLIT_STATS;
import static com.llmserve.kernels.KernelConstants.LS_ATT_THREADS;
import static com.llmserve.kernels.KernelConstants.LS_DEC_MAX_GROUP;
import static com.llmserve.kernels.KernelConstants.LS_DEC_PART_HEADS;

import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Batch;
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
 * @param kvWritten the rope before it already wrote this step's keys and values
 * @param tiles     prompt tiles of the tiled kernel (listed in the step's metadata); 0 for the per-row kernels
 * @param sinks     the shape's attention sinks on the device (one float per query head), or null
 * @param tensorCores the device runs half-precision tensor-core products (NVIDIA sm_80 on): prompt
 *                  tiles of the head sizes that have it take the tensor-core kernel
 */
record Attention(
        GpuActivations qkv,
        GpuKvStorage kv,
        int layer,
        AttentionShape shape,
        int splits,
        int n,
        GpuActivations out,
        boolean kvWritten,
        int tiles,
        DeviceBuffer sinks,
        boolean tensorCores)
        implements DeviceOp {

    /**
     * Attended positions from which a step whose blocks would each take a whole row's positions
     * splits them in two ({@link #splits}), up to {@link #LONG_CONTEXT_ROWS} rows (as measured).
     */
    static final int LONG_CONTEXT = 320;

    static final int LONG_CONTEXT_ROWS = 64;

    /**
     * Position splits per row for the per-row kernels: enough for about two blocks per
     * multiprocessor whatever the batch (measured on an H200: one row decodes fastest with 16 to 32
     * splits, 64 rows with one at 160 positions), except that where that leaves one block per row
     * and kv head, and at most four blocks per multiprocessor, two splits from {@link
     * #LONG_CONTEXT} positions on: each block reads its positions one after the other, and 64 rows
     * of 8 kv heads took 134 / 242 us a layer in two splits against 201 / 383 in one at 512 / 1000
     * positions (57 against 45 at 160; bench/kernels attention lab, {@code MANY_ROWS}). A bucket
     * so has a graph for each of its split counts as its sequences grow.
     *
     * @param context the most positions a row of the step attends to
     */
    static int splits(int multiprocessors, int kvHeads, int rows, int context) {
        int blocks = kvHeads * rows;
        int splits = (2 * multiprocessors + blocks - 1) / blocks;
        if (splits == 1 && context >= LONG_CONTEXT && rows <= LONG_CONTEXT_ROWS && blocks <= 4 * multiprocessors) {
            return 2;
        }
        return Math.max(1, Math.min(LS_ATT_MAX_SPLITS, splits));
    }

    /** The most positions a row of {@code batch} attends to through a layer of {@code shape}. */
    static int context(Batch batch, AttentionShape shape) {
        int longest = 0;
        for (int row = 0; row < batch.size(); row++) {
            longest = Math.max(longest, batch.position(row) + 1);
        }
        return shape.slidingWindow() > 0 ? Math.min(longest, shape.slidingWindow()) : longest;
    }

    /**
     * The most rows a step split into several parts can have: {@link #splits} is 1 beyond them. The
     * arrival counters are sized for as many once, so their size does not depend on which steps the
     * schedule happened to form (a rare step of 65 rows grew them after a device's idle memory was
     * taken; GpuFaultTests). The batch-invariant mode splits every row as a row alone, so there they
     * still grow with the rows.
     */
    static int splitRows(int multiprocessors, int kvHeads) {
        int longContextRows = Math.min(LONG_CONTEXT_ROWS, 4 * multiprocessors / kvHeads);
        return Math.max(1, Math.max((2 * multiprocessors - 1) / kvHeads, longContextRows));
    }

    /**
     * Query heads per block of the split kernel when a step has one row: two, whose chains are
     * shorter than four heads' (measured on an H200 in bench/kernels' attention lab: 1.3 us a layer
     * at 128 positions), where at 16 rows and more the extra blocks cost more than they save.
     */
    static final int ONE_ROW_PART_HEADS = 2;

    /**
     * Blocks per kv head of the split kernel ({@code head_parts}) for {@code rows} rows: a group of
     * more query heads than a part takes ({@code LS_DEC_PART_HEADS}, or {@link #ONE_ROW_PART_HEADS}
     * at one row) in parts of that many, so that each block's chain is shorter; one part otherwise.
     * A head's arithmetic is the same in any part, so the parts never change a result.
     */
    static int headParts(AttentionShape s, int rows) {
        int group = s.heads() / s.kvHeads();
        int perPart = rows == 1 ? ONE_ROW_PART_HEADS : LS_DEC_PART_HEADS;
        return group > perPart && group % perPart == 0 ? group / perPart : 1;
    }

    /** The head sizes whose kernels read a Q8_0 cache (whole blocks of 32), for messages. */
    static final String Q8_HEAD_SIZES = "32, 64, 96, 128 or 256";

    /**
     * Whether a Q8_0 cache has kernels for this shape: the per-head-size ones (there is no general
     * Q8_0 kernel), for head sizes that are whole Q8_0 blocks.
     */
    static boolean readsQ8(int heads, int kvHeads, int headDim) {
        return heads / kvHeads <= LS_DEC_MAX_GROUP && q8Kernels(headDim) != null;
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
     * The per-head-size kernels ({one pass with the CPU backend's rounding, split}) for the head
     * sizes they are built for and at most {@code LS_DEC_MAX_GROUP} query heads per kv head; null
     * for the general kernel (which reads F16 only).
     */
    static Kernel[] headSizeKernels(AttentionShape s, boolean q8) {
        if (s.heads() / s.kvHeads() > LS_DEC_MAX_GROUP) {
            return null;
        }
        if (q8) {
            return q8Kernels(s.headDim());
        }
        return switch (s.headDim()) {
            case 8 -> new Kernel[] {Kernel.ATTENTION_F16_D8, Kernel.ATTENTION_SPLIT_D8};
            case 16 -> new Kernel[] {Kernel.ATTENTION_F16_D16, Kernel.ATTENTION_SPLIT_D16};
            case 32 -> new Kernel[] {Kernel.ATTENTION_F16_D32, Kernel.ATTENTION_SPLIT_D32};
            case 64 -> new Kernel[] {Kernel.ATTENTION_F16_D64, Kernel.ATTENTION_SPLIT_D64};
            case 96 -> new Kernel[] {Kernel.ATTENTION_F16_D96, Kernel.ATTENTION_SPLIT_D96};
            case 128 -> new Kernel[] {Kernel.ATTENTION_F16_D128, Kernel.ATTENTION_SPLIT_D128};
            case 256 -> new Kernel[] {Kernel.ATTENTION_F16_D256, Kernel.ATTENTION_SPLIT_D256};
            default -> null;
        };
    }

    private static Kernel[] q8Kernels(int headDim) {
        return switch (headDim) {
            case 32 -> new Kernel[] {Kernel.ATTENTION_Q8_D32, Kernel.ATTENTION_SPLIT_Q8_D32};
            case 64 -> new Kernel[] {Kernel.ATTENTION_Q8_D64, Kernel.ATTENTION_SPLIT_Q8_D64};
            case 96 -> new Kernel[] {Kernel.ATTENTION_Q8_D96, Kernel.ATTENTION_SPLIT_Q8_D96};
            case 128 -> new Kernel[] {Kernel.ATTENTION_Q8_D128, Kernel.ATTENTION_SPLIT_Q8_D128};
            case 256 -> new Kernel[] {Kernel.ATTENTION_Q8_D256, Kernel.ATTENTION_SPLIT_Q8_D256};
            default -> null;
        };
    }

    @Override
    public void reserve(Workspace w) {
        if (splits > 1) {
            // rows x splits stays below 2 x multiprocessors + rows (two splits of at most
            // LONG_CONTEXT_ROWS rows, too): sized once for every bucket
            long units = Math.max(
                    (long) n * splits,
                    2L * w.device().info().multiprocessors() + w.options().maxGraphRows());
            w.reserve(Slot.ATTENTION, units * shape.heads() * (shape.headDim() + LS_ATT_SPLIT_STATS) * Float.BYTES);
            w.reserve(
                    Slot.ATTENTION_ARRIVALS,
                    (long) Math.max(
                                    n,
                                    Math.max(
                                            w.options().maxGraphRows(),
                                            splitRows(w.device().info().multiprocessors(), shape.kvHeads())))
                            * shape.kvHeads()
                            * headParts(shape, 1)
                            * Integer.BYTES);
        }
    }

    @Override
    public boolean graphable() {
        return tiles == 0;
    }

    /** This attention without its own cache write: the rope before it writes keys and values. */
    Attention afterCacheWrite() {
        return new Attention(qkv, kv, layer, shape, splits, n, out, true, tiles, sinks, tensorCores);
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
        Kernel[] kernels = headSizeKernels(s, kv.q8());
        if (kernels == null && kv.q8()) {
            // refused at load (GpuBackend.checkKvCacheShape): only a caller past that check gets here
            throw new GpuBackendException("no q8_0 KV cache kernel for " + s.heads() + "/" + s.kvHeads() + " heads of "
                    + s.headDim() + " (heads of " + Q8_HEAD_SIZES + ")");
        }
        if (kernels == null) {
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
        // several splits: one launch, the last split of each row and kv head to finish merges them
        KernelArgs args = rowArgs(l).pointer(out.buffer).i32(out.cols());
        if (splits > 1) {
            args.pointer(partials).pointer(l.scratch(Slot.ATTENTION_ARRIVALS));
        }
        args.i32(s.heads())
                .i32(s.kvHeads())
                .i32(kv.blockSize())
                .f32(s.cappedScale())
                .f32(s.softcap());
        pointerOrNull(args, sinks).i32(s.causal() ? 1 : 0).i32(s.slidingWindow());
        if (splits > 1) {
            int parts = headParts(s, n);
            LaunchConfig perPart = new LaunchConfig(s.kvHeads() * parts, n, splits, LS_ATT_THREADS, 1, 1, 0);
            l.kernel(kernels[1], perPart, args.i32(splits).i32(parts));
        } else {
            l.kernel(kernels[0], grid, args);
        }
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
                + (tiles > 0 ? " tiles=" + tiles : " splits=" + splits);
    }
}
