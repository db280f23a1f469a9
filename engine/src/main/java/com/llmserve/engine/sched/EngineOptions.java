package com.llmserve.engine.sched;

import com.llmserve.engine.model.ModelOptions;
import java.time.Duration;

/**
 * How an engine loop schedules one model replica. Its defaults are the constants below, which the
 * service's {@code llmserve.engine.*} properties take as theirs.
 *
 * @param kvBlocks       KV cache blocks (the reserved one included, so at least {@value #MIN_KV_BLOCKS})
 * @param blockSize      token slots per block
 * @param maxBatchTokens tokens per forward pass, shared by decodes and prefill chunks: running
 *                       decodes go first, a long prompt takes what is left, so it never stalls them
 * @param maxRunning     the most sequences decoding at once
 * @param maxWaiting     the most requests waiting for admission; more are refused
 * @param prefixCaching  reuse the KV blocks of earlier sequences with the same prefix
 * @param defaultTimeout the limit for requests that set none
 * @param overlapSteps   issue a greedy step's successor before reading it, where the model submits
 *                       ahead (a model on one GPU; see {@link InferenceEngine})
 */
public record EngineOptions(
        int kvBlocks,
        int blockSize,
        int maxBatchTokens,
        int maxRunning,
        int maxWaiting,
        boolean prefixCaching,
        Duration defaultTimeout,
        boolean overlapSteps) {

    /** The reserved null block and at least one to hold tokens. */
    public static final int MIN_KV_BLOCKS = 2;

    public static final int DEFAULT_KV_BLOCKS = 1024;
    public static final int DEFAULT_BLOCK_SIZE = 16;
    /** A step's tokens are the rows the model's scratch buffers hold. */
    public static final int DEFAULT_MAX_BATCH_TOKENS = ModelOptions.DEFAULT_MAX_BATCH_TOKENS;

    public static final int DEFAULT_MAX_RUNNING = 64;
    public static final int DEFAULT_MAX_WAITING = 256;
    public static final boolean DEFAULT_PREFIX_CACHING = true;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);
    public static final boolean DEFAULT_OVERLAP_STEPS = true;

    public EngineOptions {
        if (kvBlocks < MIN_KV_BLOCKS || blockSize < 1 || maxBatchTokens < 1 || maxRunning < 1 || maxWaiting < 0) {
            throw new IllegalArgumentException("invalid engine options: " + kvBlocks + " blocks of " + blockSize + ", "
                    + maxBatchTokens + " tokens per step, " + maxRunning + " running, " + maxWaiting + " waiting");
        }
        if (defaultTimeout == null || defaultTimeout.isNegative() || defaultTimeout.isZero()) {
            throw new IllegalArgumentException("the default timeout must be positive: " + defaultTimeout);
        }
    }

    /** Sizes for a small CPU deployment: 1024 blocks of 16 tokens, 512 tokens per step, 10 minutes per request. */
    public static EngineOptions defaults() {
        return new EngineOptions(
                DEFAULT_KV_BLOCKS,
                DEFAULT_BLOCK_SIZE,
                DEFAULT_MAX_BATCH_TOKENS,
                DEFAULT_MAX_RUNNING,
                DEFAULT_MAX_WAITING,
                DEFAULT_PREFIX_CACHING,
                DEFAULT_TIMEOUT,
                DEFAULT_OVERLAP_STEPS);
    }

    public EngineOptions withKvBlocks(int blocks) {
        return new EngineOptions(
                blocks, blockSize, maxBatchTokens, maxRunning, maxWaiting, prefixCaching, defaultTimeout, overlapSteps);
    }

    public EngineOptions withMaxBatchTokens(int tokens) {
        return new EngineOptions(
                kvBlocks, blockSize, tokens, maxRunning, maxWaiting, prefixCaching, defaultTimeout, overlapSteps);
    }

    public EngineOptions withMaxRunning(int running) {
        return new EngineOptions(
                kvBlocks, blockSize, maxBatchTokens, running, maxWaiting, prefixCaching, defaultTimeout, overlapSteps);
    }

    public EngineOptions withMaxWaiting(int waiting) {
        return new EngineOptions(
                kvBlocks, blockSize, maxBatchTokens, maxRunning, waiting, prefixCaching, defaultTimeout, overlapSteps);
    }

    public EngineOptions withPrefixCaching(boolean on) {
        return new EngineOptions(
                kvBlocks, blockSize, maxBatchTokens, maxRunning, maxWaiting, on, defaultTimeout, overlapSteps);
    }

    public EngineOptions withDefaultTimeout(Duration timeout) {
        return new EngineOptions(
                kvBlocks, blockSize, maxBatchTokens, maxRunning, maxWaiting, prefixCaching, timeout, overlapSteps);
    }

    public EngineOptions withOverlapSteps(boolean on) {
        return new EngineOptions(
                kvBlocks, blockSize, maxBatchTokens, maxRunning, maxWaiting, prefixCaching, defaultTimeout, on);
    }
}
