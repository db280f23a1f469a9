package com.llmserve.engine.sched;

/** Why a choice ended. */
public enum FinishReason {
    /** A stop token was sampled (or the caller stopped it at a stop string, see {@link RequestHandle#stop}). */
    STOP,
    /** {@code maxTokens} were generated, or the context window is full. */
    LENGTH,
    /** The caller cancelled it (client gone). */
    CANCELLED,
    /** The request outlived its timeout. */
    TIMEOUT,
    /** The backend failed; {@link TokenListener#onFinish} comes after {@link TokenListener#onError}. */
    ERROR
}
