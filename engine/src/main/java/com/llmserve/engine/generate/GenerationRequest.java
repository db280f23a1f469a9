package com.llmserve.engine.generate;

import com.llmserve.engine.sampling.SamplingParams;
import java.util.Set;

/**
 * One sequence to generate.
 *
 * @param prompt     prompt token ids (with BOS where the model wants one)
 * @param maxTokens  the most tokens to generate
 * @param sampling   how to pick tokens
 * @param stopTokens ids that end generation (end-of-generation tokens); not emitted
 */
public record GenerationRequest(int[] prompt, int maxTokens, SamplingParams sampling, Set<Integer> stopTokens) {

    public GenerationRequest {
        if (prompt.length == 0) {
            throw new IllegalArgumentException("the prompt must hold at least one token");
        }
        if (maxTokens < 0) {
            throw new IllegalArgumentException("maxTokens must not be negative: " + maxTokens);
        }
        prompt = prompt.clone();
        stopTokens = Set.copyOf(stopTokens);
    }
}
