package com.llmserve.engine.chat;

import java.util.Objects;

/**
 * One turn of a conversation, as chat templates see it: {@code message['role']} and
 * {@code message['content']}.
 *
 * @param role    {@code system}, {@code user}, {@code assistant} or another role the template knows
 * @param content the text; {@code null} renders as Jinja's {@code none} (an assistant turn that
 *                only calls tools has no content)
 */
public record ChatMessage(String role, String content) {

    public ChatMessage {
        Objects.requireNonNull(role, "role");
        if (role.isBlank()) {
            throw new IllegalArgumentException("a chat message needs a role");
        }
    }

    public static ChatMessage system(String content) {
        return new ChatMessage("system", content);
    }

    public static ChatMessage user(String content) {
        return new ChatMessage("user", content);
    }

    public static ChatMessage assistant(String content) {
        return new ChatMessage("assistant", content);
    }
}
