package com.llmserve.engine.sched;

import java.time.Duration;

/**
 * How an embedding loop gathers requests into batches. Its defaults are the constants below, which
 * the service's {@code llmserve.embedding.*} properties take as theirs.
 *
 * @param maxBatchTokens tokens per batch; requests join the batch in arrival order until the next
 *                       would pass this (a single larger request still runs, alone)
 * @param maxWait        how long the first request of a batch waits for others to join, while requests
 *                       come together (after a batch of one request there is no wait)
 * @param maxWaiting     the most requests waiting; more are refused with {@link AdmissionException}
 */
public record EmbeddingOptions(int maxBatchTokens, Duration maxWait, int maxWaiting) {

    /** Tokens per batch on the CPU. */
    public static final int DEFAULT_CPU_BATCH_TOKENS = 2048;
    /** Tokens per batch on a GPU, where a batch of several 32-input requests costs little more than one. */
    public static final int DEFAULT_GPU_BATCH_TOKENS = 16384;

    public static final int DEFAULT_MAX_WAIT_MILLIS = 2;
    public static final int DEFAULT_MAX_WAITING = 256;

    public EmbeddingOptions {
        if (maxBatchTokens < 1 || maxWaiting < 0 || maxWait == null || maxWait.isNegative()) {
            throw new IllegalArgumentException("invalid embedding options: " + maxBatchTokens + " tokens, wait "
                    + maxWait + ", " + maxWaiting + " waiting");
        }
    }

    /** 2048 tokens per batch (the CPU's), gathered for up to 2 ms, 256 requests waiting. */
    public static EmbeddingOptions defaults() {
        return defaults(false);
    }

    /** The defaults of a loop on a GPU, or on the CPU. */
    public static EmbeddingOptions defaults(boolean gpu) {
        return new EmbeddingOptions(
                gpu ? DEFAULT_GPU_BATCH_TOKENS : DEFAULT_CPU_BATCH_TOKENS,
                Duration.ofMillis(DEFAULT_MAX_WAIT_MILLIS),
                DEFAULT_MAX_WAITING);
    }
}
