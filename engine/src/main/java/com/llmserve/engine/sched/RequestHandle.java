package com.llmserve.engine.sched;

/** Controls a submitted request from any thread; effects apply at the engine's next step. */
public interface RequestHandle {

    /** Ends every unfinished choice with {@link FinishReason#CANCELLED} and frees its KV blocks. */
    void cancel();

    /**
     * Ends one choice with {@link FinishReason#STOP}: the caller found a stop string in its text.
     * Tokens generated before the engine sees this may still be reported; the caller drops them.
     */
    void stop(int choice);

    /** Prompt tokens whose KV came from the prefix cache (for usage reporting); final once the first token is out. */
    int cachedPromptTokens();
}
