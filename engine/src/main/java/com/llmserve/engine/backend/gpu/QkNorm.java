package com.llmserve.engine.backend.gpu;

/**
 * The per-head RMSNorm of the query heads and then the one of the key heads right after them in a
 * q|k|v row (qwen3's and gemma3's q/k norms): the two as one operation, so that the rope that
 * follows can take both in ({@link RotaryEmbedding#normalizing}), which normalizes each head in
 * the rope's own launch. Alone it launches the two norms as recorded.
 */
record QkNorm(HeadRmsNorm queries, HeadRmsNorm keys) implements DeviceOp {

    QkNorm {
        if (!adjacent(queries, keys)) {
            throw new IllegalArgumentException("not the norms of adjacent heads of one row: " + queries + ", " + keys);
        }
    }

    /** Whether {@code keys} normalizes the heads right after {@code queries}' in the same rows, alike. */
    static boolean adjacent(HeadRmsNorm queries, HeadRmsNorm keys) {
        return queries.x() == keys.x()
                && queries.n() == keys.n()
                && queries.headDim() == keys.headDim()
                && Float.floatToIntBits(queries.eps()) == Float.floatToIntBits(keys.eps())
                && queries.col() + queries.heads() * queries.headDim() == keys.col();
    }

    GpuActivations x() {
        return queries.x();
    }

    /** The first column of the query heads. */
    int col() {
        return queries.col();
    }

    /** Query heads and key heads together. */
    int heads() {
        return queries.heads() + keys.heads();
    }

    int headDim() {
        return queries.headDim();
    }

    float eps() {
        return queries.eps();
    }

    @Override
    public void launch(Launch l) {
        queries.launch(l);
        keys.launch(l);
    }

    @Override
    public int n() {
        return queries.n();
    }

    @Override
    public String profileKey() {
        return "qkNorm " + queries.heads() + "+" + keys.heads() + "x" + headDim() + " n=" + n();
    }
}
