package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_HEAD_THREADS;

import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.backend.gpu.StepMeta.Region;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.kernels.Kernel;

/**
 * Rotates {@code heads} heads of {@code headDim} from column {@code col} by each row's position.
 *
 * @param norm  when not null, the per-head norms of the query and key heads recorded before this
 *              rope, whose heads start at {@code col}: the kernel ({@code ls_rope_norm_f32})
 *              normalizes each of them first, exactly as the norms' own kernel would, then rotates
 * @param kv    when not null, the kernel also writes each row's keys (rotated) and values into this
 *              cache at {@code layer} (the write the attention that follows would do)
 * @param shape where keys and values sit, when {@code kv} is set
 */
record RotaryEmbedding(
        GpuActivations x,
        int col,
        int heads,
        int headDim,
        Rope.Style style,
        RopeTable table,
        int n,
        QkNorm norm,
        GpuKvStorage kv,
        int layer,
        AttentionShape shape)
        implements DeviceOp {

    RotaryEmbedding(GpuActivations x, int col, int heads, int headDim, Rope.Style style, RopeTable table, int n) {
        this(x, col, heads, headDim, style, table, n, null, null, 0, null);
    }

    @Override
    public void launch(Launch l) {
        KernelArgs args = KernelArgs.of()
                .pointer(x.buffer)
                .i32(x.cols())
                .i32(col)
                .i32(heads)
                .i32(headDim)
                .i32(table.dims())
                .i32(style == Rope.Style.NEOX ? 1 : 0);
        l.meta(args, Region.POSITIONS).pointer(table.buffer());
        if (norm != null) {
            args.i32(norm.heads())
                    .i32(norm.queries().heads())
                    .pointer(norm.queries().weight().vector)
                    .pointer(norm.keys().weight().vector)
                    .f32(norm.eps());
        }
        if (kv != null) {
            args.i32(shape.keyCol()).i32(shape.valueCol()).i32(shape.kvDim());
            l.meta(args, Region.slots(kv.groupOf(layer)))
                    .pointer(kv.keys[layer])
                    .pointer(kv.values[layer]);
        } else {
            args.i32(0).i32(0).i32(0).nullPointer().nullPointer().nullPointer();
        }
        if (norm != null) {
            // a block of the norm's size per head: each head's squares add up as the norm's own kernel adds them
            int blocks = Math.max(heads, norm.heads());
            l.kernel(Kernel.ROPE_NORM_F32, new LaunchConfig(n, blocks, 1, LS_HEAD_THREADS, 1, 1, 0), args);
            return;
        }
        long work = (long) heads * (table.dims() / 2);
        if (kv != null) {
            work += shape.kvDim() + (long) shape.kvHeads() * (shape.headDim() - table.dims());
        }
        int blocks = Math.toIntExact((work + Launch.THREADS - 1) / Launch.THREADS);
        l.kernel(Kernel.ROPE_F32, new LaunchConfig(n, blocks, 1, Launch.THREADS, 1, 1, 0), args);
    }

    /** This rope extended by {@code more} heads right after its own (the keys after the queries of one q|k|v row). */
    RotaryEmbedding widened(int more) {
        return new RotaryEmbedding(x, col, heads + more, headDim, style, table, n, norm, kv, layer, shape);
    }

    /** This rope normalizing the heads of {@code norm} (which start at its first column) before it rotates. */
    RotaryEmbedding normalizing(QkNorm norm) {
        return new RotaryEmbedding(x, col, heads, headDim, style, table, n, norm, kv, layer, shape);
    }

    /** This rope also writing the keys and values of {@code shape} to {@code kv} at {@code layer}. */
    RotaryEmbedding writingCache(GpuKvStorage kv, int layer, AttentionShape shape) {
        return new RotaryEmbedding(x, col, heads, headDim, style, table, n, norm, kv, layer, shape);
    }

    @Override
    public String profileKey() {
        return "rope " + heads + " heads" + (norm != null ? "+norm" : "") + (kv != null ? "+kv" : "") + " n=" + n;
    }
}
