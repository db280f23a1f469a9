package com.llmserve.app.models;

import com.llmserve.engine.backend.Backend;
import java.util.List;

/**
 * One loaded copy of a served model with its engine loop.
 *
 * @param device where it runs, as {@link #deviceOf} names it ({@code cpu}, {@code cuda:0}, or
 *               {@code cuda:0+cuda:1} for a model split over two GPUs); the meters' {@code device} tag
 * @param model  the weights on {@code backend}: a {@link com.llmserve.engine.model.LanguageModel} or an
 *               {@link com.llmserve.engine.model.EmbeddingModel}
 * @param engine the loop serving it: an {@link com.llmserve.engine.sched.InferenceEngine} or an
 *               {@link com.llmserve.engine.sched.EmbeddingEngine}
 */
public record Replica<M extends AutoCloseable, E extends AutoCloseable>(
        String device, Backend backend, M model, E engine) {

    /** Joins the devices of a split replica: no '/', ',' or space, so a tag value or breaker name takes it as is. */
    static final String SHARD_SEPARATOR = "+";

    /**
     * The name of a replica on {@code backend}: its device's, or its shards' in rank order joined by
     * {@value #SHARD_SEPARATOR}, since shard 0's name alone would read as a replica on one GPU.
     */
    static String deviceOf(Backend backend) {
        return String.join(SHARD_SEPARATOR, devicesOf(backend));
    }

    /** The devices a replica on {@code backend} runs on, one per shard, as each backend names its own. */
    static List<String> devicesOf(Backend backend) {
        return backend.shards().stream().map(Backend::name).toList();
    }

    /** The devices it runs on: one, or each GPU of a model split over several. */
    public List<String> devices() {
        return devicesOf(backend);
    }
}
