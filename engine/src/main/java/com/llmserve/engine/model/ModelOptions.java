package com.llmserve.engine.model;

/**
 * How a model is loaded.
 *
 * @param maxBatchTokens rows the scratch buffers hold; a larger batch runs in chunks of this size
 * @param contextLength  the longest sequence to serve, 0 for the model's own context length
 */
public record ModelOptions(int maxBatchTokens, int contextLength) {

    public static final ModelOptions DEFAULT = new ModelOptions(512, 0);

    public ModelOptions {
        if (maxBatchTokens < 1) {
            throw new IllegalArgumentException("maxBatchTokens must be positive: " + maxBatchTokens);
        }
        if (contextLength < 0) {
            throw new IllegalArgumentException("contextLength must not be negative: " + contextLength);
        }
    }
}
