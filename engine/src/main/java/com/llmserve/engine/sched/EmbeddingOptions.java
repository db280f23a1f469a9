package com.llmserve.engine.sched;

import java.time.Duration;

/**
 * How an embedding loop gathers requests into batches.
 *
 * @param maxBatchTokens tokens per batch; requests join the batch in arrival order until the next
 *                       would pass this (a single larger request still runs, alone)
 * @param maxWait        how long the first request of a batch waits for others to join, while requests
 *                       come together (after a batch of one request there is no wait)
 * @param maxWaiting     the most requests waiting; more are refused with {@link AdmissionException}
 */
public record EmbeddingOptions(int maxBatchTokens, Duration maxWait, int maxWaiting) {

    public EmbeddingOptions {
        if (maxBatchTokens < 1 || maxWaiting < 0 || maxWait == null || maxWait.isNegative()) {
            throw new IllegalArgumentException("invalid embedding options: " + maxBatchTokens + " tokens, wait "
                    + maxWait + ", " + maxWaiting + " waiting");
        }
    }

    /** 2048 tokens per batch, gathered for up to 2 ms, 256 requests waiting. */
    public static EmbeddingOptions defaults() {
        return new EmbeddingOptions(2048, Duration.ofMillis(2), 256);
    }
}
