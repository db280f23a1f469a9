package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.backend.gpu.StepMeta.Region;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.kernels.Kernel;

/**
 * Rotates {@code heads} heads of {@code headDim} from column {@code col} by each row's position.
 *
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
        GpuKvStorage kv,
        int layer,
        AttentionShape shape)
        implements DeviceOp {

    RotaryEmbedding(GpuActivations x, int col, int heads, int headDim, Rope.Style style, RopeTable table, int n) {
        this(x, col, heads, headDim, style, table, n, null, 0, null);
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
        long work = (long) heads * (table.dims() / 2);
        if (kv != null) {
            args.i32(shape.keyCol()).i32(shape.valueCol()).i32(shape.kvDim());
            l.meta(args, Region.slots(kv.groupOf(layer)))
                    .pointer(kv.keys[layer])
                    .pointer(kv.values[layer]);
            work += shape.kvDim() + (long) shape.kvHeads() * (shape.headDim() - table.dims());
        } else {
            args.i32(0).i32(0).i32(0).nullPointer().nullPointer().nullPointer();
        }
        int blocks = Math.toIntExact((work + Launch.THREADS - 1) / Launch.THREADS);
        l.kernel(Kernel.ROPE_F32, new LaunchConfig(n, blocks, 1, Launch.THREADS, 1, 1, 0), args);
    }

    /** This rope extended by {@code more} heads right after its own (the keys after the queries of one q|k|v row). */
    RotaryEmbedding widened(int more) {
        return new RotaryEmbedding(x, col, heads + more, headDim, style, table, n, kv, layer, shape);
    }

    /** This rope also writing the keys and values of {@code shape} to {@code kv} at {@code layer}. */
    RotaryEmbedding writingCache(GpuKvStorage kv, int layer, AttentionShape shape) {
        return new RotaryEmbedding(x, col, heads, headDim, style, table, n, kv, layer, shape);
    }

    @Override
    public String profileKey() {
        return "rope " + heads + " heads" + (kv != null ? "+kv" : "") + " n=" + n;
    }
}
