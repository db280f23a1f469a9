package com.llmserve.engine.backend.gpu;

import java.util.List;

/**
 * Merges an operation into the one recorded just before it, where one kernel can do both: each
 * rule looks at the last recorded operation and the next one, and nothing else (but one, which
 * looks through a mixture's router product and routing), so every rule is testable alone and a
 * step's fusions never depend on what the model called earlier. A fused operation is appended in
 * turn, so it may merge with the one before it. The results are exactly those of the operations
 * run apart.
 */
final class Fusions {

    private Fusions() {}

    /** Appends {@code next} to {@code ops}, fused with the last operation where a rule applies. */
    static void append(List<DeviceOp> ops, DeviceOp next) {
        DeviceOp last = ops.isEmpty() ? null : ops.getLast();
        DeviceOp fused = last == null ? null : fuse(last, next);
        if (fused != null) {
            ops.removeLast();
            append(ops, fused);
            return;
        }
        switch (next) {
            case Matmul m
            when last != null && m.takesQ8() && quantizes(last, m) != null -> {
                ops.set(ops.size() - 1, quantizes(last, m));
                ops.add(m.afterQuantizingProducer());
            }
            case ExpertMatmul e
            when e.takesQ8() && !e.prequantized() && quantizesPastRouting(ops, e) != null -> {
                ops.set(ops.size() - 3, quantizesPastRouting(ops, e));
                ops.add(e.afterQuantizingProducer());
            }
            case ExpertMatmul e
            when last instanceof SwiGlu g && e.takesQ8() && g.out() == e.x() && g.n() == e.xRows() && !g.quantize() -> {
                ops.set(ops.size() - 1, g.quantizing());
                ops.add(e.afterQuantizingProducer());
            }
            case Attention a
            when last instanceof RotaryEmbedding r && writesCacheOf(r, a) -> {
                ops.set(ops.size() - 1, r.writingCache(a.kv(), a.layer(), a.shape()));
                ops.add(a.afterCacheWrite());
            }
            default -> ops.add(next);
        }
    }

    /** The one operation doing {@code last} then {@code next}, or null. */
    private static DeviceOp fuse(DeviceOp last, DeviceOp next) {
        // x += y; y' = norm(x): the residual add of a pre-norm block and the norm after it
        if (next instanceof RmsNorm norm
                && !norm.quantize()
                && last instanceof Add(GpuActivations x, GpuActivations y, int n)
                && x == norm.x()
                && n == norm.n()) {
            return new AddRmsNorm(x, y, norm.weight(), norm.eps(), n, norm.out(), false);
        }
        // a mixture's combine, then the residual add of its output and the next norm
        if (next instanceof AddRmsNorm norm
                && last instanceof CombineExperts combine
                && CombineAddRmsNorm.fits(combine, norm)) {
            return new CombineAddRmsNorm(combine, norm);
        }
        // the norm of the query heads then the one of the key heads right after them (qwen3, gemma3)
        if (next instanceof HeadRmsNorm keys && last instanceof HeadRmsNorm queries && QkNorm.adjacent(queries, keys)) {
            return new QkNorm(queries, keys);
        }
        // those norms then the rope of the heads they start with: the rope's launch normalizes each
        // head before rotating it
        if (next instanceof RotaryEmbedding rope
                && last instanceof QkNorm norm
                && rope.norm() == null
                && rope.kv() == null
                && rope.x() == norm.x()
                && rope.n() == norm.n()
                && rope.headDim() == norm.headDim()
                && rope.col() == norm.col()) {
            return rope.normalizing(norm);
        }
        // the queries then the keys of one q|k|v row: one launch rotates both (the queries' rope
        // may carry the norms of both, recorded before either rope)
        if (next instanceof RotaryEmbedding keys
                && last instanceof RotaryEmbedding queries
                && queries.kv() == null
                && keys.kv() == null
                && keys.norm() == null
                && queries.x() == keys.x()
                && queries.headDim() == keys.headDim()
                && queries.style() == keys.style()
                && queries.table() == keys.table()
                && queries.n() == keys.n()
                && queries.col() + queries.heads() * queries.headDim() == keys.col()) {
            return queries.widened(keys.heads());
        }
        return null;
    }

    /**
     * The norm, SwiGLU or decode attention that produced {@code m}'s input, switched to the variant
     * that also writes its Q8_0 form (which saves the product's own quantization launch); null when
     * {@code last} is no such producer.
     */
    private static DeviceOp quantizes(DeviceOp last, Matmul m) {
        return switch (last) {
            case RmsNorm r when r.out() == m.x() && r.n() == m.n() && !r.quantize() -> r.quantizing();
            case AddRmsNorm r when r.out() == m.x() && r.n() == m.n() && !r.quantize() -> r.quantizing();
            case CombineAddRmsNorm c
            when c.norm().out() == m.x() && c.n() == m.n() && !c.norm().quantize() -> c.quantizing();
            case SwiGlu g when g.out() == m.x() && g.n() == m.n() && !g.quantize() -> g.quantizing();
            case Attention a
            when a.out() == m.x() && a.n() == m.n() && !a.quantize() && a.canQuantize() -> a.quantizing();
            default -> null;
        };
    }

    /**
     * A mixture's input norm when the router's product and the routing follow it and then the first
     * expert product of the norm's rows: the norm's variant that also writes the Q8_0 form the
     * expert product reads (which saves the product's own quantization launch); null otherwise. The
     * one rule that looks past the last operation, through two that touch neither the norm's output
     * nor the int8 scratch: a mixture always records these in this order.
     */
    private static DeviceOp quantizesPastRouting(List<DeviceOp> ops, ExpertMatmul e) {
        int size = ops.size();
        if (size < 3
                || !(ops.get(size - 1) instanceof RouteExperts route)
                || route.routing() != e.routing()
                || !(ops.get(size - 2) instanceof Matmul router)
                || router.x() != e.x()
                || !router.keepsQ8Scratch()) {
            return null;
        }
        return switch (ops.get(size - 3)) {
            case RmsNorm r when r.out() == e.x() && r.n() == e.xRows() -> r.quantize() ? r : r.quantizing();
            case AddRmsNorm r when r.out() == e.x() && r.n() == e.xRows() -> r.quantize() ? r : r.quantizing();
            case CombineAddRmsNorm c
            when c.norm().out() == e.x() && c.n() == e.xRows() -> c.norm().quantize() ? c : c.quantizing();
            default -> null;
        };
    }

    /**
     * Whether {@code r} rotates exactly the keys of {@code a}'s rows (all kv heads, after the
     * queries) and normalizes no head past them (the values it copies to the cache).
     */
    private static boolean writesCacheOf(RotaryEmbedding r, Attention a) {
        return !a.kvWritten()
                && !a.kv().q8() // the rope writes halves: a Q8_0 cache is written by the attention's launch
                && r.kv() == null
                && (r.norm() == null || r.norm().heads() <= r.heads())
                && r.x() == a.qkv()
                && r.n() == a.n()
                && r.headDim() == a.shape().headDim()
                && r.col() <= a.shape().keyCol()
                && r.col() + r.heads() * r.headDim()
                        == a.shape().keyCol() + a.shape().kvDim();
    }
}
