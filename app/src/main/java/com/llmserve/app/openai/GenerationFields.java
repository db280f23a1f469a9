package com.llmserve.app.openai;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** Reads the generation parameters that completions and chat share. */
public final class GenerationFields {

    private GenerationFields() {}

    /** {@code n}: choices per prompt, 1 by default. */
    public static int n(RequestFields f, ApiProperties limits) {
        return f.optInt("n", 1, limits.maxN()).orElse(1);
    }

    /** {@code stop}: a string or an array of non-empty strings. */
    public static List<String> stop(RequestFields f, ApiProperties limits) {
        JsonNode node = f.raw("stop");
        if (node == null) {
            return List.of();
        }
        List<String> stops = new ArrayList<>();
        if (node.isString()) {
            stops.add(node.stringValue());
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                JsonNode s = node.get(i);
                if (!s.isString()) {
                    throw RequestFields.typeError(f.path("stop") + "[" + i + "]", "a string", s);
                }
                stops.add(s.stringValue());
            }
        } else {
            throw RequestFields.typeError(f.path("stop"), "a string or an array of strings", node);
        }
        if (stops.size() > limits.maxStop()) {
            throw f.invalid(
                    "stop",
                    "Invalid 'stop': at most " + limits.maxStop() + " stop sequences are allowed, but got "
                            + stops.size() + ".",
                    "array_above_max_length");
        }
        for (int i = 0; i < stops.size(); i++) {
            if (stops.get(i).isEmpty()) {
                throw new InvalidRequestException(
                        node.isArray() ? f.path("stop") + "[" + i + "]" : f.path("stop"),
                        "Invalid 'stop': a stop sequence must not be empty.",
                        "empty_string");
            }
        }
        return List.copyOf(stops);
    }

    /**
     * {@code stream} and {@code stream_options.include_usage}.
     *
     * @return whether to stream, and whether to end the stream with a usage chunk
     */
    public static Streaming streaming(RequestFields f) {
        boolean stream = f.optBoolean("stream").orElse(false);
        JsonNode options = f.raw("stream_options");
        boolean includeUsage = false;
        if (options != null) {
            if (!stream) {
                throw f.invalid(
                        "stream_options", "The 'stream_options' parameter is only allowed when 'stream' is true.");
            }
            RequestFields o = RequestFields.nested(options, f.path("stream_options"));
            includeUsage = o.optBoolean("include_usage").orElse(false);
            // OpenAI pads chunks against length side channels unless this is false; no padding is ever sent here
            o.optBoolean("include_obfuscation");
            o.optBoolean("continuous_usage_stats").ifPresent(on -> {
                if (on) {
                    throw o.invalid(
                            "continuous_usage_stats",
                            "Usage in every chunk is not supported; use include_usage.",
                            "unsupported_parameter");
                }
            });
            o.rejectUnknown();
        }
        return new Streaming(stream, includeUsage);
    }

    /** {@code ignore_eos}: keep generating past end-of-generation tokens. */
    public static boolean ignoreEos(RequestFields f) {
        return f.optBoolean("ignore_eos").orElse(false);
    }

    /** A parameter that must be absent (or null) because it is not built: 400 naming it otherwise. */
    public static void unsupported(RequestFields f, String name, String message) {
        if (f.raw(name) != null) {
            throw f.invalid(name, message, "unsupported_parameter");
        }
    }

    /**
     * Chat parameters of OpenAI's platform rather than of the answer. Accepted, type-checked and
     * without effect: {@code store} and {@code metadata} (nothing is stored), {@code service_tier},
     * {@code safety_identifier}, the prompt cache's hints ({@code prompt_cache_key},
     * {@code prompt_cache_retention}, {@code prompt_cache_options}: the prefix cache here is
     * automatic), {@code reasoning_effort} (the served models take no reasoning budget; a chat
     * template's own switch is set with {@code chat_template_kwargs}), {@code prediction} (a
     * latency hint: the answer is the same without it) and {@code verbosity} at its default,
     * {@code medium}. Refused with a 400 when set, because the answer would not be what was asked:
     * {@code verbosity} other than {@code medium}, {@code web_search_options}, {@code audio} and
     * {@code moderation}.
     */
    public static void platformFields(RequestFields f) {
        f.optBoolean("store");
        metadata(f);
        f.optString("service_tier");
        f.optString("safety_identifier");
        f.optString("prompt_cache_key");
        f.optString("prompt_cache_retention");
        JsonNode cacheOptions = f.raw("prompt_cache_options");
        if (cacheOptions != null && !cacheOptions.isObject()) {
            throw RequestFields.typeError(f.path("prompt_cache_options"), "an object", cacheOptions);
        }
        f.optString("reasoning_effort");
        JsonNode prediction = f.raw("prediction");
        if (prediction != null && !prediction.isObject()) {
            throw RequestFields.typeError(f.path("prediction"), "an object", prediction);
        }
        verbosity(f);
        unsupported(f, "web_search_options", "Web search is not supported.");
        unsupported(f, "audio", "Audio output is not supported; only the text modality is.");
        unsupported(f, "moderation", "Moderation is not supported.");
    }

    /** {@code verbosity}: only OpenAI's default, {@code medium}; the served models have no other. */
    public static void verbosity(RequestFields f) {
        f.optString("verbosity").ifPresent(verbosity -> {
            if (!verbosity.equals("medium")) {
                throw f.invalid(
                        "verbosity",
                        "Invalid '" + f.path("verbosity") + "': only 'medium' (the default) is supported, but got '"
                                + verbosity + "'.",
                        "unsupported_parameter");
            }
        });
    }

    /** {@code metadata}: string values by key, which nothing here uses (empty when absent). */
    public static Map<String, String> metadata(RequestFields f) {
        JsonNode metadata = f.raw("metadata");
        if (metadata == null) {
            return Map.of();
        }
        RequestFields m = RequestFields.nested(metadata, f.path("metadata"));
        Map<String, String> values = new LinkedHashMap<>();
        for (String key : metadata.propertyNames()) {
            m.optString(key).ifPresent(value -> values.put(key, value));
        }
        return values;
    }

    /** The optional id a client sends in {@code user}; accepted and not used. */
    public static Optional<String> user(RequestFields f) {
        return f.optString("user");
    }

    /**
     * @param stream       answer with server-sent events
     * @param includeUsage end the stream with a usage chunk
     */
    public record Streaming(boolean stream, boolean includeUsage) {}
}
