package com.llmserve.engine.model.llama;

import com.llmserve.engine.gguf.GgufTensor;
import com.llmserve.engine.gguf.TensorSlices;
import com.llmserve.engine.model.InvalidModelException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Which part of each weight a tensor-parallel shard holds (Megatron's split): shard {@code rank}
 * of {@code parts} takes its band of the query and key/value heads and of the feed-forward
 * columns, so q|k|v and gate|up are cut by rows, the attention output and the down projection by
 * columns, and the partial products are summed across the shards after each. Norms, the
 * embedding and biases applied after a sum stay whole.
 */
record ShardSplit(Path file, int rank, int parts) {

    static ShardSplit whole(Path file) {
        return new ShardSplit(file, 0, 1);
    }

    boolean isWhole() {
        return parts == 1;
    }

    /** The band of {@code total} rows starting {@code at} rows into {@code t}. */
    GgufTensor rows(GgufTensor t, long at, long total) {
        if (isWhole() && at == 0 && total == t.rows()) {
            return t;
        }
        long band = total / parts;
        return TensorSlices.rows(t, at + rank * band, band);
    }

    /** The band of {@code t}'s columns (a vector's elements) {@code total} long starting {@code at}. */
    GgufTensor columns(GgufTensor t, long at, long total) {
        if (isWhole() && at == 0 && total == t.rowLength()) {
            return t;
        }
        long band = total / parts;
        try {
            return TensorSlices.columns(t, at + rank * band, band);
        } catch (IllegalArgumentException e) {
            throw new InvalidModelException(file, "cannot split over " + parts + " GPUs: " + e.getMessage());
        }
    }

    /** This shard's {@code values.length / parts} of per-head values. */
    float[] heads(float[] values) {
        if (values == null || isWhole()) {
            return values;
        }
        int band = values.length / parts;
        return Arrays.copyOfRange(values, rank * band, (rank + 1) * band);
    }
}
