package com.llmserve.app.openai.completions;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.llmserve.app.generation.OutputToken;
import com.llmserve.engine.sampling.TokenLogprobs;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** The JSON shapes of {@code /v1/completions}: the response, its stream chunks, log-probabilities. */
final class CompletionResponses {

    static final String OBJECT = "text_completion";

    private CompletionResponses() {}

    /**
     * A completion, or one chunk of a stream (same shape; a chunk's {@code usage} is absent, null,
     * or the final counts with {@code choices} empty).
     */
    record Completion(
            String id,
            String object,
            long created,
            String model,
            List<Choice> choices,
            @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode usage) {}

    record Choice(
            int index,
            String text,
            Logprobs logprobs,
            @JsonProperty("finish_reason") String finishReason) {}

    /** OpenAI's legacy log-probability lists, one entry per token. */
    record Logprobs(
            List<String> tokens,
            @JsonProperty("token_logprobs") List<Float> tokenLogprobs,
            @JsonProperty("top_logprobs") List<Map<String, Float>> topLogprobs,
            @JsonProperty("text_offset") List<Integer> textOffset) {

        /**
         * @param offset where the choice's generated text starts in the returned text (the echoed prompt's length)
         */
        static Logprobs of(List<OutputToken> tokens, int offset) {
            List<String> texts = new ArrayList<>(tokens.size());
            List<Float> lps = new ArrayList<>(tokens.size());
            List<Map<String, Float>> tops = new ArrayList<>(tokens.size());
            List<Integer> offsets = new ArrayList<>(tokens.size());
            for (OutputToken t : tokens) {
                texts.add(t.text());
                lps.add(finite(t.logprob()));
                tops.add(top(t));
                offsets.add(offset + t.textOffset());
            }
            return new Logprobs(texts, lps, tops, offsets);
        }

        private static Map<String, Float> top(OutputToken t) {
            Map<String, Float> top = new LinkedHashMap<>();
            for (OutputToken.Alternative a : t.top()) {
                top.putIfAbsent(a.text(), finite(a.logprob()));
            }
            // OpenAI always reports the chosen token too: up to logprobs + 1 entries
            top.putIfAbsent(t.text(), finite(t.logprob()));
            return top;
        }

        /**
         * The echoed prompt's entries: every prompt token, the first without a log-probability
         * (nothing comes before it), the others scored by the model; offsets count the tokens' texts.
         */
        static Logprobs ofPrompt(Tokenizer tokenizer, int[] prompt, List<TokenLogprobs> scores) {
            if (scores.size() != prompt.length - 1) {
                throw new IllegalStateException(
                        scores.size() + " prompt scores for " + prompt.length + " prompt tokens");
            }
            List<String> texts = new ArrayList<>(prompt.length);
            List<Float> lps = new ArrayList<>(prompt.length);
            List<Map<String, Float>> tops = new ArrayList<>(prompt.length);
            List<Integer> offsets = new ArrayList<>(prompt.length);
            int offset = 0;
            for (int i = 0; i < prompt.length; i++) {
                OutputToken t = OutputToken.of(tokenizer, prompt[i], i == 0 ? null : scores.get(i - 1), offset);
                texts.add(t.text());
                lps.add(i == 0 ? null : finite(t.logprob()));
                tops.add(i == 0 ? null : top(t));
                offsets.add(offset);
                offset += t.text().length();
            }
            return new Logprobs(texts, lps, tops, offsets);
        }

        /** Concatenation, for the non-streaming answer built from many deltas. */
        Logprobs plus(Logprobs more) {
            return new Logprobs(
                    concat(tokens, more.tokens),
                    concat(tokenLogprobs, more.tokenLogprobs),
                    concat(topLogprobs, more.topLogprobs),
                    concat(textOffset, more.textOffset));
        }

        private static <T> List<T> concat(List<T> a, List<T> b) {
            List<T> all = new ArrayList<>(a);
            all.addAll(b);
            return all;
        }
    }

    /** JSON has no infinity: a token the model rules out gets OpenAI's floor of -9999. */
    static float finite(float logprob) {
        return Float.isFinite(logprob) ? logprob : -9999f;
    }
}
