package com.llmserve.app.openai.chat;

import com.llmserve.app.openai.GenerationFields;
import com.llmserve.app.openai.InvalidRequestException;
import com.llmserve.app.openai.JsonValues;
import com.llmserve.app.openai.RequestFields;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * What a chat request says about tools: the functions the model may call ({@code tools}), whether
 * and which it must call ({@code tool_choice}), and whether it may call several at once
 * ({@code parallel_tool_calls}, true by default as in OpenAI's API).
 *
 * @param tools    the functions, in request order; empty when none were sent
 * @param choice   {@code none}, {@code auto}, {@code required} or a named function
 * @param named    the function {@code tool_choice} names, or null
 * @param parallel whether more than one call may be made in one answer
 */
record ToolUse(List<Tool> tools, Choice choice, String named, boolean parallel) {

    enum Choice {
        NONE,
        AUTO,
        REQUIRED,
        NAMED
    }

    /**
     * One function.
     *
     * @param parameters its JSON Schema as plain maps and lists (an empty object schema when not given)
     * @param template   the whole tool as the chat template sees it ({@code {"type": "function", "function": {...}}})
     */
    record Tool(
            String name,
            String description,
            Map<String, Object> parameters,
            boolean strict,
            Map<String, Object> template) {}

    static final ToolUse NONE = new ToolUse(List.of(), Choice.NONE, null, true);

    /** Whether the answer is to be read for tool calls. */
    boolean active() {
        return !tools.isEmpty() && choice != Choice.NONE;
    }

    /** Whether a call must be made (tool_choice required or a named function). */
    boolean forced() {
        return choice == Choice.REQUIRED || choice == Choice.NAMED;
    }

    /** The tools a forced call may use. */
    List<Tool> callable() {
        return choice == Choice.NAMED
                ? tools.stream().filter(t -> t.name().equals(named)).toList()
                : tools;
    }

    Set<String> names() {
        Set<String> names = new HashSet<>();
        tools.forEach(t -> names.add(t.name()));
        return names;
    }

    static ToolUse parse(RequestFields f) {
        List<Tool> tools = tools(f);
        boolean parallel = f.optBoolean("parallel_tool_calls").orElse(true);
        JsonNode node = f.raw("tool_choice");
        GenerationFields.unsupported(f, "functions", "'functions' is deprecated and not supported; send 'tools'.");
        GenerationFields.unsupported(
                f, "function_call", "'function_call' is deprecated and not supported; send 'tool_choice'.");
        Choice choice = tools.isEmpty() ? Choice.NONE : Choice.AUTO;
        String named = null;
        if (node != null && node.isString()) {
            choice = switch (node.stringValue()) {
                case "none" -> Choice.NONE;
                case "auto" -> tools.isEmpty() ? Choice.NONE : Choice.AUTO;
                case "required" -> Choice.REQUIRED;
                default ->
                    throw f.invalid(
                            "tool_choice",
                            "Invalid value for 'tool_choice': '" + node.stringValue()
                                    + "'. Supported values are: 'none', 'auto' and 'required', or a named function.",
                            "invalid_value");
            };
        } else if (node != null) {
            RequestFields c = RequestFields.nested(node, "tool_choice");
            RequestFields fn = function(c, "tool_choice");
            named = fn.requiredString("name");
            fn.rejectUnknown();
            c.rejectUnknown();
            choice = Choice.NAMED;
        }
        if ((choice == Choice.REQUIRED || choice == Choice.NAMED) && tools.isEmpty()) {
            throw f.invalid("tool_choice", "'tool_choice' requires 'tools' to name at least one function.");
        }
        if (named != null) {
            String wanted = named;
            if (tools.stream().noneMatch(t -> t.name().equals(wanted))) {
                throw new InvalidRequestException(
                        "tool_choice.function.name",
                        "Invalid 'tool_choice': no function named '" + named + "' is in 'tools'.",
                        "invalid_value");
            }
        }
        return new ToolUse(tools, choice, named, parallel);
    }

    /**
     * The {@code function} object of an item whose {@code type} must be {@code function} (a tool, a
     * tool choice, an assistant's call): OpenAI's one kind of tool here.
     *
     * @param what the items' name in messages ("tools", "tool calls")
     */
    static RequestFields function(RequestFields item, String what) {
        String type = item.requiredString("type");
        if (!"function".equals(type)) {
            throw item.invalid("type", "Only " + what + " of type 'function' are supported.", "invalid_value");
        }
        JsonNode function = item.raw("function");
        if (function == null) {
            throw item.missing("function");
        }
        return RequestFields.nested(function, item.path("function"));
    }

    private static List<Tool> tools(RequestFields f) {
        JsonNode node = f.raw("tools");
        if (node == null) {
            return List.of();
        }
        if (!node.isArray()) {
            throw RequestFields.typeError("tools", "an array", node);
        }
        List<Tool> tools = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < node.size(); i++) {
            String path = "tools[" + i + "]";
            RequestFields t = RequestFields.nested(node.get(i), path);
            RequestFields fn = function(t, "tools");
            String name = fn.requiredString("name");
            if (!name.matches("[a-zA-Z0-9_.:-]{1,64}")) {
                throw fn.invalid(
                        "name",
                        "Invalid '" + fn.path("name") + "': a function name is 1 to 64 letters, digits,"
                                + " underscores, dots, colons or dashes.",
                        "invalid_value");
            }
            if (!names.add(name)) {
                throw fn.invalid("name", "Two tools are named '" + name + "'.", "invalid_value");
            }
            String description = fn.optString("description").orElse(null);
            JsonNode params = fn.raw("parameters");
            if (params != null && !params.isObject()) {
                throw RequestFields.typeError(fn.path("parameters"), "an object", params);
            }
            boolean strict = fn.optBoolean("strict").orElse(false);
            fn.rejectUnknown();
            t.rejectUnknown();
            @SuppressWarnings("unchecked")
            Map<String, Object> parameters = params == null
                    ? Map.of("type", "object", "properties", Map.of())
                    : (Map<String, Object>) JsonValues.plain(params);
            @SuppressWarnings("unchecked")
            Map<String, Object> template = (Map<String, Object>) JsonValues.plain(node.get(i));
            tools.add(new Tool(name, description, parameters, strict, template));
        }
        return List.copyOf(tools);
    }
}
