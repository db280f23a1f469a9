package com.llmserve.engine.generate;

/**
 * The outcome of a {@link GenerationRequest}.
 *
 * @param tokens       generated ids (the stop token excluded)
 * @param finish       why generation ended
 * @param promptTokens prompt length
 * @param prefillNanos time to the first generated token's logits
 * @param decodeNanos  time for the remaining tokens
 */
public record Generation(int[] tokens, FinishReason finish, int promptTokens, long prefillNanos, long decodeNanos) {

    public enum FinishReason {
        /** A stop token came. */
        STOP,
        /** {@code maxTokens} were generated. */
        LENGTH,
        /** The context window is full. */
        CONTEXT
    }

    public double prefillTokensPerSecond() {
        return prefillNanos == 0 ? 0 : promptTokens * 1e9 / prefillNanos;
    }

    /** Tokens after the first, over the time they took: the first comes out of the prefill. */
    public double decodeTokensPerSecond() {
        return tokens.length <= 1 || decodeNanos == 0 ? 0 : (tokens.length - 1) * 1e9 / decodeNanos;
    }
}
