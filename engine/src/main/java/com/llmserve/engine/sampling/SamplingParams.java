package com.llmserve.engine.sampling;

import java.util.Map;
import java.util.OptionalLong;

/**
 * How to pick the next token. Defaults switch every stage off; {@code temperature == 0} is
 * greedy decoding (the lowest id wins an exact tie, as in llama.cpp).
 *
 * @param temperature       logits are divided by it before truncation; 0 for greedy
 * @param topK              keep the k most likely tokens; 0 for all
 * @param topP              keep the smallest set whose probability reaches p; 1 for all
 * @param minP              drop tokens less likely than {@code minP} times the most likely; 0 for none
 * @param repetitionPenalty divides positive (multiplies negative) logits of tokens seen in prompt or output; 1 for none
 * @param presencePenalty   subtracted once from the logit of every token the output already holds (OpenAI semantics)
 * @param frequencyPenalty  subtracted per occurrence in the output (OpenAI semantics)
 * @param logitBias         added to the logits of the given token ids before anything else
 * @param seed              makes sampling repeatable: same seed, prompt and parameters give the same tokens
 */
public record SamplingParams(
        float temperature,
        int topK,
        float topP,
        float minP,
        float repetitionPenalty,
        float presencePenalty,
        float frequencyPenalty,
        Map<Integer, Float> logitBias,
        OptionalLong seed) {

    public static final SamplingParams GREEDY =
            new SamplingParams(0f, 0, 1f, 0f, 1f, 0f, 0f, Map.of(), OptionalLong.empty());

    public SamplingParams {
        check(
                temperature >= 0 && Float.isFinite(temperature),
                "temperature must be a finite number >= 0: " + temperature);
        check(topK >= 0, "top_k must be >= 0: " + topK);
        check(topP > 0 && topP <= 1, "top_p must be in (0, 1]: " + topP);
        check(minP >= 0 && minP <= 1, "min_p must be in [0, 1]: " + minP);
        check(
                repetitionPenalty > 0 && Float.isFinite(repetitionPenalty),
                "repetition penalty must be > 0: " + repetitionPenalty);
        check(Float.isFinite(presencePenalty), "presence penalty must be finite");
        check(Float.isFinite(frequencyPenalty), "frequency penalty must be finite");
        logitBias = logitBias == null ? Map.of() : Map.copyOf(logitBias);
        seed = seed == null ? OptionalLong.empty() : seed;
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    public boolean greedy() {
        return temperature == 0f;
    }

    /** Greedy with nothing that moves a logit first (no bias, no penalties): the choice is the row's largest logit. */
    public boolean choosesLargestLogit() {
        return greedy()
                && logitBias.isEmpty()
                && repetitionPenalty == 1f
                && presencePenalty == 0f
                && frequencyPenalty == 0f;
    }

    public SamplingParams withTemperature(float t) {
        return new SamplingParams(
                t, topK, topP, minP, repetitionPenalty, presencePenalty, frequencyPenalty, logitBias, seed);
    }

    public SamplingParams withTopK(int k) {
        return new SamplingParams(
                temperature, k, topP, minP, repetitionPenalty, presencePenalty, frequencyPenalty, logitBias, seed);
    }

    public SamplingParams withTopP(float p) {
        return new SamplingParams(
                temperature, topK, p, minP, repetitionPenalty, presencePenalty, frequencyPenalty, logitBias, seed);
    }

    public SamplingParams withMinP(float p) {
        return new SamplingParams(
                temperature, topK, topP, p, repetitionPenalty, presencePenalty, frequencyPenalty, logitBias, seed);
    }

    public SamplingParams withPenalties(float repetition, float presence, float frequency) {
        return new SamplingParams(temperature, topK, topP, minP, repetition, presence, frequency, logitBias, seed);
    }

    public SamplingParams withLogitBias(Map<Integer, Float> bias) {
        return new SamplingParams(
                temperature, topK, topP, minP, repetitionPenalty, presencePenalty, frequencyPenalty, bias, seed);
    }

    public SamplingParams withSeed(long s) {
        return new SamplingParams(
                temperature,
                topK,
                topP,
                minP,
                repetitionPenalty,
                presencePenalty,
                frequencyPenalty,
                logitBias,
                OptionalLong.of(s));
    }
}
