package com.llmserve.app.openai;

import com.llmserve.engine.sampling.SamplingParams;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import tools.jackson.databind.JsonNode;

/**
 * The sampling parameters shared by completions and chat, parsed and range-checked: OpenAI's
 * ({@code temperature}, {@code top_p}, {@code seed}, {@code presence_penalty},
 * {@code frequency_penalty}, {@code logit_bias}) and the extensions llama.cpp and vLLM accept
 * ({@code top_k}, {@code min_p}, {@code repeat_penalty}).
 *
 * @param logitBias token id (as the client wrote it) to bias; ids are checked against the
 *                  model's vocabulary in {@link #toParams}
 */
public record SamplingOptions(
        double temperature,
        double topP,
        int topK,
        double minP,
        double repeatPenalty,
        double presencePenalty,
        double frequencyPenalty,
        Map<String, Float> logitBias,
        OptionalLong seed) {

    /** Upper bound of {@code repeat_penalty}: larger values are mistakes, not sampling choices. */
    static final double MAX_REPEAT_PENALTY = 100;

    public static SamplingOptions read(RequestFields f) {
        double temperature = f.optNumber("temperature", 0, 2).orElse(1.0);
        OptionalDouble topPValue = f.optNumber("top_p", 0, 1);
        if (topPValue.isPresent() && topPValue.getAsDouble() <= 0) {
            throw f.invalid(
                    "top_p",
                    "Invalid 'top_p': it must be greater than 0 and at most 1, but got " + topPValue.getAsDouble()
                            + " instead.",
                    "decimal_below_min_value");
        }
        OptionalInt topK = f.optInt("top_k", -1, Integer.MAX_VALUE);
        double minP = f.optNumber("min_p", 0, 1).orElse(0);
        OptionalDouble repeat = f.optNumber("repeat_penalty", 0, MAX_REPEAT_PENALTY);
        if (repeat.isPresent() && repeat.getAsDouble() <= 0) {
            throw f.invalid(
                    "repeat_penalty",
                    "Invalid 'repeat_penalty': it must be greater than 0 (1 is off), but got " + repeat.getAsDouble()
                            + " instead.",
                    "decimal_below_min_value");
        }
        double presence = f.optNumber("presence_penalty", -2, 2).orElse(0);
        double frequency = f.optNumber("frequency_penalty", -2, 2).orElse(0);
        Map<String, Float> bias = logitBias(f);
        OptionalLong seed = f.optLong("seed");
        return new SamplingOptions(
                temperature,
                topPValue.orElse(1),
                Math.max(0, topK.orElse(0)),
                minP,
                repeat.orElse(1),
                presence,
                frequency,
                bias,
                seed);
    }

    private static Map<String, Float> logitBias(RequestFields f) {
        JsonNode node = f.raw("logit_bias");
        if (node == null) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw RequestFields.typeError(f.path("logit_bias"), "an object", node);
        }
        Map<String, Float> bias = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String path = f.path("logit_bias") + "." + e.getKey();
            if (!e.getKey().matches("\\d{1,10}")) {
                throw new InvalidRequestException(
                        f.path("logit_bias"),
                        "Invalid key in 'logit_bias': '" + e.getKey() + "' is not a token id.",
                        "invalid_logit_bias");
            }
            bias.put(e.getKey(), (float) RequestFields.numberValue(e.getValue(), path, -100, 100));
        }
        return bias;
    }

    /**
     * The engine's parameters for a model with {@code vocabSize} tokens.
     *
     * @throws InvalidRequestException for a biased id outside the vocabulary
     */
    public SamplingParams toParams(int vocabSize) {
        Map<Integer, Float> bias = new LinkedHashMap<>();
        logitBias.forEach((key, value) -> {
            long id = Long.parseLong(key);
            if (id >= vocabSize) {
                throw new InvalidRequestException(
                        "logit_bias",
                        "Invalid key in 'logit_bias': token id " + key + " is outside the model's vocabulary of "
                                + vocabSize + " tokens.",
                        "invalid_logit_bias");
            }
            bias.put((int) id, value);
        });
        SamplingParams p = SamplingParams.GREEDY
                .withTemperature((float) temperature)
                .withTopK(topK)
                .withTopP((float) topP)
                .withMinP((float) minP)
                .withPenalties((float) repeatPenalty, (float) presencePenalty, (float) frequencyPenalty)
                .withLogitBias(bias);
        return seed.isPresent() ? p.withSeed(seed.getAsLong()) : p;
    }
}
