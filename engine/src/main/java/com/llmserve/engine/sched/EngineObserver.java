package com.llmserve.engine.sched;

import java.time.Duration;

/**
 * Timings the engine loop reports as they happen, for the metrics layer (which lives in the
 * service, so the engine stays free of a metrics library). Called on the engine thread: keep it cheap.
 */
public interface EngineObserver {

    EngineObserver NONE = new EngineObserver() {};

    /** A forward pass ran {@code sequences} sequences and {@code tokens} tokens. */
    default void onStep(int sequences, int tokens, Duration elapsed) {}

    /** A choice's first token came out, {@code ttft} after its request was submitted. */
    default void onFirstToken(Duration ttft) {}

    /** A choice's next token came out {@code gap} after its previous one. */
    default void onInterToken(Duration gap) {}

    /** A choice ended. {@code queued} is how long its request waited before its first step. */
    default void onChoiceFinished(
            FinishReason reason, Duration total, Duration queued, int promptTokens, int generatedTokens) {}
}
