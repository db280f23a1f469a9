package com.llmserve.engine.sched;

import java.time.Duration;

/**
 * How an engine loop schedules one model replica.
 *
 * @param kvBlocks       KV cache blocks (the reserved one included)
 * @param blockSize      token slots per block
 * @param maxBatchTokens tokens per forward pass, shared by decodes and prefill chunks: running
 *                       decodes go first, a long prompt takes what is left, so it never stalls them
 * @param maxRunning     the most sequences decoding at once
 * @param maxWaiting     the most requests waiting for admission; more are refused
 * @param prefixCaching  reuse the KV blocks of earlier sequences with the same prefix
 * @param defaultTimeout the limit for requests that set none
 */
public record EngineOptions(
        int kvBlocks,
        int blockSize,
        int maxBatchTokens,
        int maxRunning,
        int maxWaiting,
        boolean prefixCaching,
        Duration defaultTimeout) {

    public EngineOptions {
        if (kvBlocks < 2 || blockSize < 1 || maxBatchTokens < 1 || maxRunning < 1 || maxWaiting < 0) {
            throw new IllegalArgumentException("invalid engine options: " + kvBlocks + " blocks of " + blockSize + ", "
                    + maxBatchTokens + " tokens per step, " + maxRunning + " running, " + maxWaiting + " waiting");
        }
        if (defaultTimeout == null || defaultTimeout.isNegative() || defaultTimeout.isZero()) {
            throw new IllegalArgumentException("the default timeout must be positive: " + defaultTimeout);
        }
    }

    /** Sizes for a small CPU deployment: 1024 blocks of 16 tokens, 512 tokens per step. */
    public static EngineOptions defaults() {
        return new EngineOptions(1024, 16, 512, 64, 256, true, Duration.ofMinutes(10));
    }

    public EngineOptions withKvBlocks(int blocks) {
        return new EngineOptions(
                blocks, blockSize, maxBatchTokens, maxRunning, maxWaiting, prefixCaching, defaultTimeout);
    }

    public EngineOptions withMaxBatchTokens(int tokens) {
        return new EngineOptions(kvBlocks, blockSize, tokens, maxRunning, maxWaiting, prefixCaching, defaultTimeout);
    }

    public EngineOptions withMaxRunning(int running) {
        return new EngineOptions(
                kvBlocks, blockSize, maxBatchTokens, running, maxWaiting, prefixCaching, defaultTimeout);
    }

    public EngineOptions withMaxWaiting(int waiting) {
        return new EngineOptions(
                kvBlocks, blockSize, maxBatchTokens, maxRunning, waiting, prefixCaching, defaultTimeout);
    }

    public EngineOptions withPrefixCaching(boolean on) {
        return new EngineOptions(kvBlocks, blockSize, maxBatchTokens, maxRunning, maxWaiting, on, defaultTimeout);
    }

    public EngineOptions withDefaultTimeout(Duration timeout) {
        return new EngineOptions(kvBlocks, blockSize, maxBatchTokens, maxRunning, maxWaiting, prefixCaching, timeout);
    }
}
