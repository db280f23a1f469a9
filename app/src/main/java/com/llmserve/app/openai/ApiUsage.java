package com.llmserve.app.openai;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.llmserve.app.generation.Generation;

/**
 * Token counts in OpenAI's {@code usage} shape.
 *
 * @param promptTokensDetails cached prompt tokens (prefix cache hits)
 */
public record ApiUsage(
        @JsonProperty("prompt_tokens") int promptTokens,
        @JsonProperty("completion_tokens") int completionTokens,
        @JsonProperty("total_tokens") int totalTokens,
        @JsonProperty("prompt_tokens_details") PromptTokensDetails promptTokensDetails) {

    public record PromptTokensDetails(
            @JsonProperty("cached_tokens") int cachedTokens) {}

    public static ApiUsage of(Generation.Usage u) {
        return new ApiUsage(
                u.promptTokens(), u.completionTokens(), u.totalTokens(), new PromptTokensDetails(u.cachedTokens()));
    }
}
