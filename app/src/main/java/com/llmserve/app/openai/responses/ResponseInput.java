package com.llmserve.app.openai.responses;

import com.llmserve.app.openai.InvalidRequestException;
import com.llmserve.app.openai.RequestFields;
import com.llmserve.app.openai.TextParts;
import com.llmserve.app.openai.chat.ChatMessages;
import com.llmserve.engine.chat.ChatMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The conversation of a Responses request, as chat messages for the model's template:
 * {@code instructions} first as the system message, then {@code input}: a string (one user
 * message) or a list of items. Messages keep their role ({@code developer} becomes
 * {@code system}, as on chat). The items a response returned can be sent back as they came: a
 * {@code function_call} joins the assistant message before it as one of its {@code tool_calls}
 * (the model wrote them in one turn), a {@code function_call_output} becomes a {@code tool}
 * message, and a {@code reasoning} item becomes the {@code reasoning_content} of the assistant
 * turn that follows it. Items that need stored state ({@code item_reference}) or tools this server
 * does not run are refused, naming the item.
 */
final class ResponseInput {

    /** The parts of a message's content, and the field of each that holds its text. */
    private static final Map<String, String> MESSAGE_PARTS =
            Map.of("input_text", "text", "output_text", "text", "refusal", "refusal");

    private ResponseInput() {}

    /** An assistant or other turn being assembled from items. */
    private static final class Turn {
        final String role;
        String content;
        final Map<String, Object> fields = new LinkedHashMap<>();
        final List<Object> calls = new ArrayList<>();

        Turn(String role, String content) {
            this.role = role;
            this.content = content;
        }

        ChatMessage message() {
            if (!calls.isEmpty()) {
                fields.put("tool_calls", calls);
            }
            return new ChatMessage(role, content, fields);
        }
    }

    static List<ChatMessage> parse(RequestFields f, String instructions) {
        JsonNode input = f.raw("input");
        if (input == null) {
            throw f.missing("input");
        }
        List<Turn> turns = new ArrayList<>();
        if (instructions != null) {
            turns.add(new Turn("system", instructions));
        }
        if (input.isString()) {
            turns.add(new Turn("user", input.stringValue()));
        } else if (input.isArray()) {
            if (input.isEmpty()) {
                throw new InvalidRequestException(
                        "input",
                        "Invalid 'input': empty array. Expected a string or an array with at least one item.",
                        "empty_array");
            }
            new Reader(turns).items(input);
        } else {
            throw RequestFields.typeError("input", "a string or an array of input items", input);
        }
        return turns.stream().map(Turn::message).toList();
    }

    /** Reads the items in order; keeps what links them (the pending thinking, the names of calls). */
    private static final class Reader {
        private final List<Turn> turns;
        private String pendingReasoning;
        private final Map<String, String> callNames = new HashMap<>();

        Reader(List<Turn> turns) {
            this.turns = turns;
        }

        void items(JsonNode input) {
            for (int i = 0; i < input.size(); i++) {
                String path = "input[" + i + "]";
                RequestFields item = RequestFields.nested(input.get(i), path);
                String type = item.optString("type").orElse("message");
                switch (type) {
                    case "message" -> message(item);
                    case "function_call" -> functionCall(item);
                    case "function_call_output" -> functionCallOutput(item);
                    case "reasoning" -> reasoning(item);
                    case "item_reference" ->
                        throw item.invalid(
                                "type",
                                "Input items of type 'item_reference' refer to stored items, and this server stores"
                                        + " none; send the item itself.",
                                "unsupported_parameter");
                    default ->
                        throw item.invalid(
                                "type",
                                "Input items of type '" + type + "' are not supported. Supported types are: 'message',"
                                        + " 'function_call', 'function_call_output' and 'reasoning'.",
                                "invalid_value");
                }
                item.rejectUnknown();
            }
        }

        private void message(RequestFields m) {
            String role = m.requiredString("role");
            switch (role) {
                case "user", "system", "developer", "assistant" -> {}
                default ->
                    throw m.invalid(
                            "role",
                            "Invalid value for '" + m.path("role") + "': '" + role
                                    + "'. Supported values are: 'user', 'assistant', 'system' and 'developer'.",
                            "invalid_value");
            }
            m.optString("id");
            m.optString("status");
            m.optString("phase");
            String content = content(m);
            Turn turn = new Turn("developer".equals(role) ? "system" : role, content);
            if ("assistant".equals(role)) {
                takeReasoning(turn);
            }
            turns.add(turn);
        }

        /** A string, or text parts joined by newlines (as chat joins them). */
        private static String content(RequestFields m) {
            JsonNode node = m.raw("content");
            if (node == null) {
                throw m.missing("content");
            }
            if (node.isString()) {
                return node.stringValue();
            }
            return TextParts.join(m, "content", node, MESSAGE_PARTS, "annotations", "logprobs");
        }

        private void functionCall(RequestFields c) {
            String callId = c.requiredString("call_id");
            String name = c.requiredString("name");
            String arguments = c.requiredString("arguments");
            c.optString("id");
            c.optString("status");
            callNames.put(callId, name);
            Turn last = turns.isEmpty() ? null : turns.getLast();
            Turn turn;
            if (last != null && "assistant".equals(last.role) && pendingReasoning == null) {
                turn = last;
            } else {
                turn = new Turn("assistant", null);
                takeReasoning(turn);
                turns.add(turn);
            }
            turn.calls.add(ChatMessages.toolCall(callId, name, arguments));
        }

        private void functionCallOutput(RequestFields o) {
            String callId = o.requiredString("call_id");
            o.optString("id");
            o.optString("status");
            JsonNode output = o.raw("output");
            if (output == null) {
                throw o.missing("output");
            }
            String text = output.isString()
                    ? output.stringValue()
                    : TextParts.join(o, "output", output, Map.of("input_text", "text"));
            Turn turn = new Turn("tool", text);
            turn.fields.put("tool_call_id", callId);
            String name = callNames.get(callId);
            if (name != null) {
                turn.fields.put("name", name); // some templates name the function a result comes from
            }
            turns.add(turn);
        }

        /** The raw thinking ({@code content}) if sent, else the summary: it belongs to the next assistant turn. */
        private void reasoning(RequestFields r) {
            r.optString("id");
            r.optString("status");
            r.optString("encrypted_content");
            String content = texts(r, "content", "reasoning_text");
            String summary = texts(r, "summary", "summary_text");
            String text = !content.isEmpty() ? content : summary;
            pendingReasoning = pendingReasoning == null ? text : pendingReasoning + "\n" + text;
        }

        private static String texts(RequestFields r, String name, String partType) {
            JsonNode node = r.raw(name);
            return node == null ? "" : TextParts.join(r, name, node, Map.of(partType, "text"));
        }

        private void takeReasoning(Turn assistant) {
            if (pendingReasoning != null) {
                assistant.fields.put("reasoning_content", pendingReasoning);
                pendingReasoning = null;
            }
        }
    }
}
