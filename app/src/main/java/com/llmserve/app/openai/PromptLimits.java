package com.llmserve.app.openai;

import java.util.OptionalInt;

/** Context-window checks shared by completions and chat, worded as OpenAI words them. */
public final class PromptLimits {

    private PromptLimits() {}

    /**
     * The output budget of one prompt.
     *
     * @param requested   the client's {@code max_tokens}, if any
     * @param fallback    the budget when the client sets none (capped by what the context leaves)
     * @param promptParam the parameter that holds the prompt, for {@code param}
     * @param tokensParam the parameter that holds the budget
     * @throws InvalidRequestException when the prompt fills the context, or prompt and budget exceed it
     */
    public static int maxTokens(
            int promptTokens,
            int maxModelLen,
            OptionalInt requested,
            int fallback,
            String promptParam,
            String tokensParam) {
        if (promptTokens >= maxModelLen) {
            throw new InvalidRequestException(
                    promptParam,
                    "This model's maximum context length is " + maxModelLen
                            + " tokens. However, your prompt has " + promptTokens
                            + " tokens, which leaves no room for the completion."
                            + " Please shorten the prompt.",
                    "context_length_exceeded");
        }
        int room = maxModelLen - promptTokens;
        if (requested.isEmpty()) {
            return Math.min(fallback, room);
        }
        int wanted = requested.getAsInt();
        if (wanted > room) {
            throw new InvalidRequestException(
                    tokensParam,
                    "This model's maximum context length is " + maxModelLen
                            + " tokens. However, you requested " + ((long) promptTokens + wanted) + " tokens ("
                            + promptTokens
                            + " in the prompt, " + wanted + " for the completion). Please reduce the prompt or "
                            + tokensParam + ".",
                    "context_length_exceeded");
        }
        return wanted;
    }
}
