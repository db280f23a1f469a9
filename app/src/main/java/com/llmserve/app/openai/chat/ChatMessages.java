package com.llmserve.app.openai.chat;

import com.llmserve.app.openai.InvalidRequestException;
import com.llmserve.app.openai.JsonValues;
import com.llmserve.app.openai.RequestFields;
import com.llmserve.app.openai.TextParts;
import com.llmserve.engine.chat.ChatMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Reads a conversation ({@code messages}) and template variables, for chat and {@code /tokenize}. */
public final class ChatMessages {

    private static final JsonMapper JSON = JsonMapper.builder().build();

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
            case "system", "user", "assistant", "developer", "tool" -> {}
            case "function" ->
                throw m.invalid(
                        "role",
                        "Messages with role 'function' are deprecated and not supported; send role 'tool'.",
                        "unsupported_parameter");
            default ->
                throw m.invalid(
                        "role",
                        "Invalid value for '" + m.path("role") + "': '" + role
                                + "'. Supported values are: 'system', 'developer', 'user', 'assistant' and 'tool'.",
                        "invalid_value");
        }
        if (m.raw("function_call") != null) {
            throw m.invalid(
                    "function_call",
                    "'function_call' is deprecated and not supported; send 'tool_calls'.",
                    "unsupported_parameter");
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        m.optString("name").ifPresent(name -> fields.put("name", name));
        m.optString("refusal");
        if ("tool".equals(role)) {
            fields.put("tool_call_id", m.requiredString("tool_call_id"));
        }
        if ("assistant".equals(role)) {
            List<Object> calls = toolCalls(m);
            if (!calls.isEmpty()) {
                fields.put("tool_calls", calls);
            }
            m.optString("reasoning_content").ifPresent(r -> fields.put("reasoning_content", r));
        }
        String content = content(m, role);
        m.rejectUnknown();
        // chat templates know system, user and assistant; "developer" is OpenAI's newer name for system
        return new ChatMessage("developer".equals(role) ? "system" : role, content, fields);
    }

    /** An assistant's {@code tool_calls}, each as {@link #toolCall} makes it. */
    private static List<Object> toolCalls(RequestFields m) {
        JsonNode node = m.raw("tool_calls");
        if (node == null) {
            return List.of();
        }
        if (!node.isArray()) {
            throw RequestFields.typeError(m.path("tool_calls"), "an array", node);
        }
        List<Object> calls = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            String path = m.path("tool_calls") + "[" + i + "]";
            RequestFields c = RequestFields.nested(node.get(i), path);
            String id = c.requiredString("id");
            RequestFields fn = ToolUse.function(c, "tool calls");
            String name = fn.requiredString("name");
            String arguments = fn.requiredString("arguments");
            fn.rejectUnknown();
            c.rejectUnknown();
            calls.add(toolCall(id, name, arguments));
        }
        return calls;
    }

    /**
     * One call of an assistant's {@code tool_calls} as Hugging Face templates expect it, for chat
     * messages and the Responses API's {@code function_call} items alike: {@code arguments} parsed
     * into an object when it is JSON object text (OpenAI sends a string; templates write it with
     * {@code tojson}), as vLLM does.
     */
    public static Map<String, Object> toolCall(String id, String name, String arguments) {
        Map<String, Object> function = new LinkedHashMap<>();
        function.put("name", name);
        function.put("arguments", parsedArguments(arguments));
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("id", id);
        call.put("type", "function");
        call.put("function", function);
        return call;
    }

    private static Object parsedArguments(String arguments) {
        try {
            JsonNode parsed = JSON.readTree(arguments);
            return parsed != null && parsed.isObject() ? JsonValues.plain(parsed) : arguments;
        } catch (JacksonException e) {
            return arguments; // the template writes the text as it came
        }
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
        return TextParts.join(m, "content", node, Map.of("text", "text"));
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
            vars.put(e.getKey(), JsonValues.plain(e.getValue()));
        }
        return vars;
    }
}
