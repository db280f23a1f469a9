package com.llmserve.engine.sched;

import com.llmserve.engine.grammar.TokenAutomaton;
import com.llmserve.engine.sampling.SamplingParams;
import java.time.Duration;
import java.util.Set;

/**
 * One generation request: a prompt and {@code n} independent samples ("choices") of up to
 * {@code maxTokens} tokens each. The choices share the prompt's KV blocks through the prefix cache.
 *
 * @param prompt      prompt token ids (BOS included where the model wants it); at least one
 * @param n           choices to sample, each with its own random stream ({@code seed + i} when seeded)
 * @param maxTokens   the most tokens per choice; capped by the context window. 0 only with prompt
 *                    log-probabilities (the prompt is scored, nothing is generated)
 * @param sampling    how to pick tokens
 * @param stopTokens  ids that end a choice (end-of-generation tokens); not emitted; empty to ignore EOS
 * @param topLogprobs -1 for no log-probabilities, 0 for the chosen token's, k for it and the k most likely
 * @param promptLogprobs the same for the prompt's tokens, each scored from the logits before it (all
 *                    but the first; reported by {@link TokenListener#onPromptToken}): the prompt is then
 *                    computed whole, without the prefix cache
 * @param timeout     how long the request may take from submission, or null for the engine's default
 * @param grammar     constrains every choice to the grammar's language (structured output, forced tool
 *                    calls), or null: only allowed tokens are sampled, and a stop token only once the text
 *                    is complete; a choice whose text is complete and cannot grow stops there
 */
public record InferenceRequest(
        int[] prompt,
        int n,
        int maxTokens,
        SamplingParams sampling,
        Set<Integer> stopTokens,
        int topLogprobs,
        int promptLogprobs,
        Duration timeout,
        TokenAutomaton grammar) {

    public InferenceRequest {
        if (prompt == null || prompt.length == 0) {
            throw new IllegalArgumentException("the prompt must hold at least one token");
        }
        if (n < 1) {
            throw new IllegalArgumentException("n must be at least 1: " + n);
        }
        if (maxTokens < (promptLogprobs >= 0 ? 0 : 1)) {
            throw new IllegalArgumentException(
                    "max tokens must be at least 1 (0 only to score the prompt): " + maxTokens);
        }
        if (topLogprobs < -1 || promptLogprobs < -1) {
            throw new IllegalArgumentException(
                    "top and prompt logprobs must be -1 (none) or more: " + topLogprobs + ", " + promptLogprobs);
        }
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        prompt = prompt.clone();
        stopTokens = Set.copyOf(stopTokens);
    }

    /** A greedy request with no stop tokens and no log-probabilities. */
    public static InferenceRequest greedy(int[] prompt, int maxTokens) {
        return new InferenceRequest(prompt, 1, maxTokens, SamplingParams.GREEDY, Set.of(), -1, -1, null, null);
    }

    public InferenceRequest withN(int choices) {
        return new InferenceRequest(
                prompt, choices, maxTokens, sampling, stopTokens, topLogprobs, promptLogprobs, timeout, grammar);
    }

    public InferenceRequest withSampling(SamplingParams s) {
        return new InferenceRequest(prompt, n, maxTokens, s, stopTokens, topLogprobs, promptLogprobs, timeout, grammar);
    }

    public InferenceRequest withStopTokens(Set<Integer> stop) {
        return new InferenceRequest(
                prompt, n, maxTokens, sampling, stop, topLogprobs, promptLogprobs, timeout, grammar);
    }

    public InferenceRequest withTopLogprobs(int k) {
        return new InferenceRequest(prompt, n, maxTokens, sampling, stopTokens, k, promptLogprobs, timeout, grammar);
    }

    /** Scores the prompt too; {@code maxTokens} may then be 0. */
    public InferenceRequest withPromptLogprobs(int k) {
        return new InferenceRequest(prompt, n, maxTokens, sampling, stopTokens, topLogprobs, k, timeout, grammar);
    }

    public InferenceRequest withGrammar(TokenAutomaton g) {
        return new InferenceRequest(
                prompt, n, maxTokens, sampling, stopTokens, topLogprobs, promptLogprobs, timeout, g);
    }

    public InferenceRequest withTimeout(Duration t) {
        return new InferenceRequest(
                prompt, n, maxTokens, sampling, stopTokens, topLogprobs, promptLogprobs, t, grammar);
    }
}
