package com.llmserve.engine.chat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One turn of a conversation, as chat templates see it: {@code message['role']},
 * {@code message['content']} and whatever else the turn carries, the way Hugging Face's
 * transformers passes it (an assistant's {@code tool_calls}, a tool result's {@code tool_call_id}
 * and {@code name}).
 *
 * @param role    {@code system}, {@code user}, {@code assistant}, {@code tool} or another role the template knows
 * @param content the text; {@code null} renders as Jinja's {@code none} (an assistant turn that
 *                only calls tools has no content)
 * @param fields  more keys of the message, as plain maps, lists and scalars; never {@code role} or {@code content}
 */
public record ChatMessage(String role, String content, Map<String, Object> fields) {

    public ChatMessage {
        Objects.requireNonNull(role, "role");
        if (role.isBlank()) {
            throw new IllegalArgumentException("a chat message needs a role");
        }
        fields = fields == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        if (fields.containsKey("role") || fields.containsKey("content")) {
            throw new IllegalArgumentException("role and content are not extra fields");
        }
    }

    public ChatMessage(String role, String content) {
        this(role, content, Map.of());
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
