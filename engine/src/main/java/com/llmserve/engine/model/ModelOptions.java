package com.llmserve.engine.model;

import com.llmserve.engine.backend.KvCacheType;

/**
 * How a model is loaded. Its defaults are the constants below; the service sets both per model
 * ({@code llmserve.engine.max-batch-tokens} or {@code llmserve.embedding.max-batch-tokens}, and
 * {@code llmserve.models[i].context-size}).
 *
 * @param maxBatchTokens rows the scratch buffers hold; a larger batch runs in chunks of this size
 * @param contextLength  the longest sequence to serve, 0 for the model's own context length
 * @param kvCacheType    how a completion model's KV cache stores keys and values
 *                       ({@code llmserve.engine.kv-cache-type}); a backend that does not store this
 *                       type refuses the model at load
 */
public record ModelOptions(int maxBatchTokens, int contextLength, KvCacheType kvCacheType) {

    public static final int DEFAULT_MAX_BATCH_TOKENS = 512;
    /** The model's own context length. */
    public static final int DEFAULT_CONTEXT_LENGTH = 0;

    /** llama.cpp's default. */
    public static final KvCacheType DEFAULT_KV_CACHE_TYPE = KvCacheType.F16;

    public static final ModelOptions DEFAULT = new ModelOptions(DEFAULT_MAX_BATCH_TOKENS, DEFAULT_CONTEXT_LENGTH);

    public ModelOptions {
        if (maxBatchTokens < 1) {
            throw new IllegalArgumentException("maxBatchTokens must be positive: " + maxBatchTokens);
        }
        if (contextLength < 0) {
            throw new IllegalArgumentException("contextLength must not be negative: " + contextLength);
        }
        if (kvCacheType == null) {
            throw new IllegalArgumentException("kvCacheType must be set");
        }
    }

    /** With the default F16 KV cache. */
    public ModelOptions(int maxBatchTokens, int contextLength) {
        this(maxBatchTokens, contextLength, DEFAULT_KV_CACHE_TYPE);
    }

    public ModelOptions withKvCacheType(KvCacheType type) {
        return new ModelOptions(maxBatchTokens, contextLength, type);
    }
}
