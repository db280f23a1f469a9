package com.llmserve.app.generation;

import com.llmserve.engine.grammar.TokenAutomaton;
import com.llmserve.engine.sampling.SamplingParams;
import java.util.List;

/**
 * What to generate for each prompt of a request.
 *
 * @param n           choices per prompt
 * @param maxTokens   the most tokens per choice (already checked against the context window)
 * @param sampling    how tokens are picked; choice i of a seeded request uses seed + i
 * @param stop        strings that end a choice; the output stops before the first one
 * @param ignoreEos   keep generating past end-of-generation tokens (benchmarks)
 * @param topLogprobs -1 for no log-probabilities, 0 for the chosen token's, k for the k most likely too
 * @param promptLogprobs the same for the prompt's tokens ({@link Generation#promptLogprobs}); {@code maxTokens}
 *                    may then be 0
 * @param grammar     the language every choice must be in (structured output, forced tool calls), or null
 */
public record GenerationParams(
        int n,
        int maxTokens,
        SamplingParams sampling,
        List<String> stop,
        boolean ignoreEos,
        int topLogprobs,
        int promptLogprobs,
        TokenAutomaton grammar) {

    public GenerationParams {
        stop = List.copyOf(stop);
    }

    public boolean logprobs() {
        return topLogprobs >= 0;
    }
}
