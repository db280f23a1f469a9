package com.llmserve.engine.sched;

import java.time.Duration;

/** A request the engine refuses before it queues: nothing of it runs. */
public final class AdmissionException extends RuntimeException {

    public enum Reason {
        /** The waiting queue is full; try again after {@link #retryAfter()}. */
        QUEUE_FULL,
        /** The prompt does not fit the context window (or the KV cache could never hold it). */
        PROMPT_TOO_LONG,
        /** The engine is shut down. */
        STOPPED
    }

    private final Reason reason;
    private final Duration retryAfter;

    public AdmissionException(Reason reason, String message, Duration retryAfter) {
        super(message);
        this.reason = reason;
        this.retryAfter = retryAfter;
    }

    public Reason reason() {
        return reason;
    }

    /** A hint for {@code Retry-After}; zero when retrying is pointless. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
