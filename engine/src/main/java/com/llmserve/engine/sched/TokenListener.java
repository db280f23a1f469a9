package com.llmserve.engine.sched;

import com.llmserve.engine.sampling.TokenLogprobs;

/**
 * Receives a request's output. Called on the engine loop's thread, which every running sequence
 * waits on: implementations hand the data off (to a queue, an SSE emitter) and return at once.
 */
public interface TokenListener {

    /**
     * A token of choice {@code choice} was generated (stop tokens are not reported).
     *
     * @param logprobs its log-probabilities, or null when the request asked for none
     */
    void onToken(int choice, int token, TokenLogprobs logprobs);

    /**
     * Prompt token {@code position} (1 or more) scored from the logits of the positions before it,
     * when the request asked for prompt log-probabilities; in order, before the first token.
     */
    default void onPromptToken(int position, TokenLogprobs logprobs) {}

    /** Choice {@code choice} ended; nothing more comes for it. Called exactly once per choice. */
    void onFinish(int choice, FinishReason reason);

    /** The backend failed while computing this request; {@link #onFinish} with {@link FinishReason#ERROR} follows. */
    default void onError(Throwable error) {}
}
