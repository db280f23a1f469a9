package com.llmserve.app.openai.chat;

import com.llmserve.app.openai.InvalidRequestException;
import com.llmserve.app.openai.RequestFields;
import com.llmserve.engine.chat.ChatMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** Reads a conversation ({@code messages}) and template variables, for chat and {@code /tokenize}. */
public final class ChatMessages {

    private ChatMessages() {}

    /** {@code messages} of a request: a non-empty array of system, developer, user and assistant messages. */
    public static List<ChatMessage> parse(RequestFields f) {
        JsonNode node = f.raw("messages");
        if (node == null) {
            throw f.missing("messages");
        }
        if (!node.isArray()) {
            throw RequestFields.typeError("messages", "an array", node);
        }
        if (node.isEmpty()) {
            throw new InvalidRequestException(
                    "messages",
                    "Invalid 'messages': empty array. Expected an array with minimum length 1,"
                            + " but got an empty array instead.",
                    "empty_array");
        }
        List<ChatMessage> messages = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            messages.add(message(node.get(i), "messages[" + i + "]"));
        }
        return List.copyOf(messages);
    }

    private static ChatMessage message(JsonNode node, String path) {
        RequestFields m = RequestFields.nested(node, path);
        String role = m.requiredString("role");
        switch (role) {
            case "system", "user", "assistant", "developer" -> {}
            case "tool", "function" ->
                throw m.invalid(
                        "role",
                        "Messages with role '" + role + "' need tool calling, which this server does not support yet.",
                        "unsupported_parameter");
            default ->
                throw m.invalid(
                        "role",
                        "Invalid value for '" + m.path("role") + "': '" + role
                                + "'. Supported values are: 'system', 'developer', 'user' and 'assistant'.",
                        "invalid_value");
        }
        if (m.raw("tool_calls") != null) {
            throw m.invalid("tool_calls", "Tool calls are not supported yet.", "unsupported_parameter");
        }
        if (m.raw("function_call") != null) {
            throw m.invalid("function_call", "Function calls are not supported yet.", "unsupported_parameter");
        }
        m.optString("name");
        m.optString("refusal");
        String content = content(m, role);
        m.rejectUnknown();
        // chat templates know system, user and assistant; "developer" is OpenAI's newer name for system
        return new ChatMessage("developer".equals(role) ? "system" : role, content);
    }

    /** A string, or an array of text parts joined by newlines (as vLLM joins them). */
    private static String content(RequestFields m, String role) {
        JsonNode node = m.raw("content");
        if (node == null) {
            if ("assistant".equals(role)) {
                return null;
            }
            throw m.missing("content");
        }
        if (node.isString()) {
            return node.stringValue();
        }
        if (!node.isArray()) {
            throw RequestFields.typeError(m.path("content"), "a string or an array of content parts", node);
        }
        List<String> texts = new ArrayList<>();
        for (int j = 0; j < node.size(); j++) {
            RequestFields part = RequestFields.nested(node.get(j), m.path("content") + "[" + j + "]");
            String type = part.requiredString("type");
            if (!"text".equals(type)) {
                throw part.invalid(
                        "type",
                        "Content parts of type '" + type + "' are not supported; only 'text' is.",
                        "unsupported_content_type");
            }
            texts.add(part.requiredString("text"));
            part.rejectUnknown();
        }
        return String.join("\n", texts);
    }

    /** {@code chat_template_kwargs}: extra variables for the chat template (vLLM's extension). */
    public static Map<String, Object> templateVariables(RequestFields f) {
        JsonNode node = f.raw("chat_template_kwargs");
        if (node == null) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw RequestFields.typeError("chat_template_kwargs", "an object", node);
        }
        Map<String, Object> vars = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            vars.put(e.getKey(), plain(e.getValue()));
        }
        return vars;
    }

    /** JSON as the plain maps, lists and scalars a template sees. */
    private static Object plain(JsonNode v) {
        if (v.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : v.properties()) {
                map.put(e.getKey(), plain(e.getValue()));
            }
            return map;
        } else if (v.isArray()) {
            List<Object> list = new ArrayList<>();
            for (JsonNode e : v) {
                list.add(plain(e));
            }
            return list;
        } else if (v.isBoolean()) {
            return v.booleanValue();
        } else if (v.isIntegralNumber()) {
            return v.longValue();
        } else if (v.isNumber()) {
            return v.doubleValue();
        } else if (v.isString()) {
            return v.stringValue();
        }
        return null;
    }
}
