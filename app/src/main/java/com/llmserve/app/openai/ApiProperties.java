package com.llmserve.app.openai;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Limits and timings of the OpenAI-compatible API. The longest an embeddings request may wait and
 * run is the {@code embedding} time limiter's timeout.
 *
 * @param maxRequestSize     the largest request body; larger ones are answered 413
 * @param keepAliveInterval  how long a stream may stay silent (a long prefill, a full queue)
 *                           before an SSE comment is sent, and how long a non-streaming answer may
 *                           take before its 200 goes out and a space follows every interval: so
 *                           proxies keep the connection and a client that left is noticed
 * @param maxN               the most choices per prompt ({@code n})
 * @param maxChoices         the most choices per request: prompts times {@code n}
 * @param maxStop            the most stop strings per request
 * @param maxLogprobs        the most alternatives per token ({@code logprobs}, {@code top_logprobs})
 * @param maxEmbeddingInputs the most inputs per embeddings request
 * @param maxEmbeddingTokens the most tokens of all inputs of one embeddings request (OpenAI's limit:
 *                           300,000), so one request's cost is bounded before it queues
 * @param unknownFields      what a request field the service does not know gets: {@code warn}
 *                           (ignored, and logged once per endpoint and field name, as vLLM and
 *                           llama.cpp do), {@code reject} (a 400, as OpenAI answers) or
 *                           {@code ignore}. Known fields are checked as strictly under each: a
 *                           wrong value, or one the service cannot honour, is a 400
 */
@ConfigurationProperties("llmserve.api")
public record ApiProperties(
        @DefaultValue("16MB") DataSize maxRequestSize,
        @DefaultValue("10s") Duration keepAliveInterval,
        @DefaultValue("16") int maxN,
        @DefaultValue("64") int maxChoices,
        @DefaultValue("16") int maxStop,
        @DefaultValue("20") int maxLogprobs,
        @DefaultValue("2048") int maxEmbeddingInputs,
        @DefaultValue("300000") int maxEmbeddingTokens,
        @DefaultValue("warn") UnknownFieldPolicy unknownFields) {

    public ApiProperties {
        if (unknownFields == null) {
            throw new IllegalArgumentException("llmserve.api.unknown-fields must be reject, warn or ignore");
        }
        if (maxN < 1
                || maxChoices < maxN
                || maxStop < 0
                || maxLogprobs < 0
                || maxEmbeddingInputs < 1
                || maxEmbeddingTokens < 1) {
            throw new IllegalArgumentException(
                    "llmserve.api: max-n must be at least 1 and at most max-choices; the other limits must not be negative");
        }
        if (keepAliveInterval.isNegative() || keepAliveInterval.isZero()) {
            throw new IllegalArgumentException(
                    "llmserve.api.keep-alive-interval must be positive: " + keepAliveInterval);
        }
    }

    /** Defaults, for tests and tools. */
    public static ApiProperties defaults() {
        return new ApiProperties(
                DataSize.ofMegabytes(16),
                Duration.ofSeconds(10),
                16,
                64,
                16,
                20,
                2048,
                300_000,
                UnknownFieldPolicy.WARN);
    }
}
