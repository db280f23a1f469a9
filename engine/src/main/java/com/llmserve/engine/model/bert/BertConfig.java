package com.llmserve.engine.model.bert;

import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Pooling;
import com.llmserve.engine.gguf.GgufMetadata;
import com.llmserve.engine.model.InvalidModelException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The hyper-parameters of a BERT encoder, read once from the {@code bert.*} keys that llama.cpp's
 * converter writes, and validated.
 *
 * @param embedding     model width ({@code n_embd}), also the length of the output vectors
 * @param layers        encoder blocks
 * @param heads         query heads
 * @param kvHeads       key/value heads ({@code heads} in every BERT checkpoint seen so far)
 * @param headDim       dimensions per head
 * @param feedForward   GELU hidden width
 * @param layerNormEps  LayerNorm epsilon (BERT: 1e-12)
 * @param contextLength trained context, the rows of the position table
 * @param pooling       how one vector is made from an input's rows
 */
record BertConfig(
        int embedding,
        int layers,
        int heads,
        int kvHeads,
        int headDim,
        int feedForward,
        float layerNormEps,
        int contextLength,
        Pooling pooling) {

    static final String PREFIX = "bert";

    static BertConfig read(Path file, GgufMetadata m) {
        if (m.findBoolean(PREFIX + ".attention.causal").orElse(false)) {
            throw new InvalidModelException(
                    file, PREFIX + ".attention.causal is true: a causal BERT is not an encoder this engine runs");
        }
        int embedding = m.getInt(PREFIX + ".embedding_length");
        int heads = m.getInt(PREFIX + ".attention.head_count");
        if (embedding <= 0 || heads <= 0 || embedding % heads != 0) {
            throw new InvalidModelException(
                    file, "embedding length " + embedding + " does not split into " + heads + " heads");
        }
        BertConfig c = new BertConfig(
                embedding,
                m.getInt(PREFIX + ".block_count"),
                heads,
                m.findInt(PREFIX + ".attention.head_count_kv").orElse(heads),
                embedding / heads,
                m.getInt(PREFIX + ".feed_forward_length"),
                m.getFloat(PREFIX + ".attention.layer_norm_epsilon"),
                m.getInt(PREFIX + ".context_length"),
                pooling(file, m));
        c.validate(file);
        return c;
    }

    /** llama.cpp's {@code llama_pooling_type}: only the kinds that give one vector per input are served. */
    private static Pooling pooling(Path file, GgufMetadata m) {
        String key = PREFIX + ".pooling_type";
        int id = m.findInt(key)
                .orElseThrow(() -> new InvalidModelException(
                        file, key + " is missing: an embedding model needs MEAN (1), CLS (2) or LAST (3)"));
        return Arrays.stream(Pooling.values())
                .filter(p -> p.ggufId() == id)
                .findFirst()
                .orElseThrow(() -> new InvalidModelException(
                        file,
                        key + " = " + id
                                + (id == 0
                                        ? " (NONE) gives a vector per token; this engine serves one per input: MEAN (1), CLS (2) or LAST (3)"
                                        : " is not a pooling this engine serves: MEAN (1), CLS (2) or LAST (3)")));
    }

    private void validate(Path file) {
        if (layers <= 0 || feedForward <= 0 || kvHeads <= 0 || contextLength <= 0) {
            throw new InvalidModelException(file, "hyper-parameters must be positive: " + this);
        }
        if (heads % kvHeads != 0) {
            throw new InvalidModelException(
                    file, heads + " query heads are not a multiple of " + kvHeads + " kv heads");
        }
        if (!(layerNormEps > 0)) {
            throw new InvalidModelException(file, "layer norm epsilon must be positive: " + layerNormEps);
        }
    }

    /** Bidirectional attention scaled by {@code 1/sqrt(headDim)}, as llama.cpp's {@code soft_max_ext} over K·Q. */
    AttentionShape attention() {
        return new AttentionShape(heads, kvHeads, headDim, 1f / (float) Math.sqrt(headDim), false, 0);
    }

    int queryDim() {
        return heads * headDim;
    }

    int kvDim() {
        return kvHeads * headDim;
    }
}
