package com.llmserve.app.openai.completions;

import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.GenerationFields;
import com.llmserve.app.openai.InvalidRequestException;
import com.llmserve.app.openai.OutputFormat;
import com.llmserve.app.openai.RequestFields;
import com.llmserve.app.openai.SamplingOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import tools.jackson.databind.JsonNode;

/**
 * A parsed {@code POST /v1/completions} body. Everything that can be checked without the model
 * is checked here; token ids and lengths are checked against the model later.
 *
 * @param prompts   one or more prompts, each text or token ids
 * @param maxTokens the client's {@code max_tokens}, if set
 * @param logprobs  alternatives per token ({@code logprobs}), if set
 * @param format    the shape the text must take: vLLM's {@code response_format} and llama.cpp's {@code grammar}
 */
record CompletionRequest(
        String model,
        List<Prompt> prompts,
        OptionalInt maxTokens,
        SamplingOptions sampling,
        int n,
        GenerationFields.Streaming streaming,
        List<String> stop,
        OptionalInt logprobs,
        boolean echo,
        boolean ignoreEos,
        OutputFormat format) {

    /** The default of {@code max_tokens} in OpenAI's completions API. */
    static final int DEFAULT_MAX_TOKENS = 16;

    /** One prompt: text, or token ids sent as they are. */
    sealed interface Prompt {
        /** Where it sits in the request, for {@code param}. */
        String param();
    }

    record TextPrompt(String text, String param) implements Prompt {}

    record TokenPrompt(int[] tokens, String param) implements Prompt {}

    static CompletionRequest parse(JsonNode body, ApiProperties limits) {
        RequestFields f = RequestFields.of(body);
        String model = f.requiredString("model");
        List<Prompt> prompts = prompts(f);
        boolean echo = f.optBoolean("echo").orElse(false);
        OptionalInt maxTokens = f.optInt("max_tokens", 0, Integer.MAX_VALUE);
        if (maxTokens.isPresent() && maxTokens.getAsInt() == 0 && !echo) {
            throw f.invalid(
                    "max_tokens",
                    "Invalid 'max_tokens': it must be at least 1 unless 'echo' is true, but got 0 instead.",
                    "integer_below_min_value");
        }
        SamplingOptions sampling = SamplingOptions.read(f);
        int n = GenerationFields.n(f, limits);
        if ((long) n * prompts.size() > limits.maxChoices()) {
            throw f.invalid(
                    "n",
                    "Invalid 'n': " + prompts.size() + " prompts times n = " + n + " makes more than the "
                            + limits.maxChoices() + " choices a request may have.",
                    "too_many_choices");
        }
        OptionalInt bestOf = f.optInt("best_of", 1, limits.maxN());
        if (bestOf.isPresent() && bestOf.getAsInt() != n) {
            throw f.invalid("best_of", "'best_of' other than 'n' is not supported.", "unsupported_parameter");
        }
        GenerationFields.Streaming streaming = GenerationFields.streaming(f);
        List<String> stop = GenerationFields.stop(f, limits);
        OptionalInt logprobs = f.optInt("logprobs", 0, limits.maxLogprobs());
        if (echo && logprobs.isPresent() && streaming.stream()) {
            throw f.invalid(
                    "echo",
                    "'echo' together with 'logprobs' (the prompt's log-probabilities) cannot be streamed.",
                    "unsupported_parameter");
        }
        boolean ignoreEos = GenerationFields.ignoreEos(f);
        OutputFormat format = OutputFormat.parse(f);
        f.optString("suffix").ifPresent(s -> {
            if (!s.isEmpty()) {
                throw f.invalid("suffix", "'suffix' (insertion) is not supported.", "unsupported_parameter");
            }
        });
        GenerationFields.user(f);
        f.rejectUnknown();
        return new CompletionRequest(
                model, prompts, maxTokens, sampling, n, streaming, stop, logprobs, echo, ignoreEos, format);
    }

    /** A string, an array of strings, an array of token ids, or an array of such arrays. */
    private static List<Prompt> prompts(RequestFields f) {
        JsonNode node = f.raw("prompt");
        if (node == null) {
            throw f.missing("prompt");
        }
        List<Prompt> prompts = new ArrayList<>();
        if (node.isString()) {
            prompts.add(text(node.stringValue(), "prompt"));
        } else if (node.isArray()) {
            if (node.isEmpty()) {
                throw new InvalidRequestException("prompt", "Invalid 'prompt': it must not be empty.", "empty_array");
            }
            JsonNode first = node.get(0);
            if (first.isIntegralNumber()) {
                prompts.add(new TokenPrompt(tokens(node, "prompt"), "prompt"));
            } else {
                for (int i = 0; i < node.size(); i++) {
                    JsonNode p = node.get(i);
                    String param = "prompt[" + i + "]";
                    if (p.isString() && first.isString()) {
                        prompts.add(text(p.stringValue(), param));
                    } else if (p.isArray() && first.isArray()) {
                        if (p.isEmpty()) {
                            throw new InvalidRequestException(
                                    param, "Invalid '" + param + "': it must not be empty.", "empty_array");
                        }
                        prompts.add(new TokenPrompt(tokens(p, param), param));
                    } else {
                        throw RequestFields.typeError(
                                param,
                                first.isString()
                                        ? "a string (like the first prompt)"
                                        : "an array of token ids (like the first prompt)",
                                p);
                    }
                }
            }
        } else {
            throw RequestFields.typeError(
                    "prompt", "a string, an array of strings, an array of token ids or an array of such arrays", node);
        }
        return List.copyOf(prompts);
    }

    private static TextPrompt text(String text, String param) {
        if (text.isEmpty()) {
            throw new InvalidRequestException(
                    param, "Invalid '" + param + "': the prompt must not be empty.", "empty_string");
        }
        return new TextPrompt(text, param);
    }

    private static int[] tokens(JsonNode array, String param) {
        int[] ids = new int[array.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = RequestFields.intValue(array.get(i), param + "[" + i + "]", 0, Integer.MAX_VALUE);
        }
        return ids;
    }
}
