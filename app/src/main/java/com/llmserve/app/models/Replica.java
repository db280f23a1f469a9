package com.llmserve.app.models;

import com.llmserve.engine.backend.Backend;

/**
 * One loaded copy of a served model with its engine loop.
 *
 * @param device where it runs, as its backend names it ({@code cpu}, {@code cuda:0}); the meters' {@code device} tag
 * @param model  the weights on {@code backend}: a {@link com.llmserve.engine.model.LanguageModel} or an
 *               {@link com.llmserve.engine.model.EmbeddingModel}
 * @param engine the loop serving it: an {@link com.llmserve.engine.sched.InferenceEngine} or an
 *               {@link com.llmserve.engine.sched.EmbeddingEngine}
 */
public record Replica<M extends AutoCloseable, E extends AutoCloseable>(
        String device, Backend backend, M model, E engine) {}
