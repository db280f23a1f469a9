package com.llmserve.app.openai.chat;

import com.llmserve.app.openai.GenerationFields;
import com.llmserve.app.openai.InvalidRequestException;
import com.llmserve.app.openai.JsonValues;
import com.llmserve.app.openai.RequestFields;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * What a request says about tools: the functions the model may call ({@code tools}), whether
 * and which it must call ({@code tool_choice}), and whether it may call several at once
 * ({@code parallel_tool_calls}, true by default as in OpenAI's API).
 *
 * @param tools    the functions, in request order; empty when none were sent
 * @param choice   {@code none}, {@code auto}, {@code required} or a named function
 * @param named    the function {@code tool_choice} names, or null
 * @param parallel whether more than one call may be made in one answer
 */
public record ToolUse(List<Tool> tools, Choice choice, String named, boolean parallel) {

    public enum Choice {
        NONE,
        AUTO,
        REQUIRED,
        NAMED
    }

    /**
     * How a request writes a function: chat nests its fields ({@code {"type": "function",
     * "function": {"name": ...}}}), the Responses API has them flat ({@code {"type": "function",
     * "name": ...}}), in {@code tools} and in a named {@code tool_choice} alike.
     */
    public enum Shape {
        NESTED,
        FLAT
    }

    /**
     * One function.
     *
     * @param parameters its JSON Schema as plain maps and lists (an empty object schema when not given)
     * @param strict     the client's {@code strict} (chat's default false, the Responses API's true); forced
     *                   calls follow the schema either way
     * @param template   the whole tool as the chat template sees it ({@code {"type": "function", "function": {...}}})
     * @param path       where its function fields are in the request ({@code tools[2].function}), for errors
     */
    public record Tool(
            String name,
            String description,
            Map<String, Object> parameters,
            boolean strict,
            Map<String, Object> template,
            String path) {}

    static final ToolUse NONE = new ToolUse(List.of(), Choice.NONE, null, true);

    /** Whether the answer is to be read for tool calls. */
    public boolean active() {
        return !tools.isEmpty() && choice != Choice.NONE;
    }

    /** Whether a call must be made (tool_choice required or a named function). */
    public boolean forced() {
        return choice == Choice.REQUIRED || choice == Choice.NAMED;
    }

    /** The tools a forced call may use. */
    List<Tool> callable() {
        return choice == Choice.NAMED
                ? tools.stream().filter(t -> t.name().equals(named)).toList()
                : tools;
    }

    /**
     * The chat template's variables with the tools added, as Hugging Face's
     * {@code apply_chat_template(tools=...)} passes them; unchanged when no tool may be called.
     */
    public Map<String, Object> templateVariables(Map<String, Object> variables) {
        if (tools.isEmpty() || choice == Choice.NONE) {
            return variables;
        }
        Map<String, Object> vars = new LinkedHashMap<>(variables);
        vars.put("tools", tools.stream().map(Tool::template).toList());
        return vars;
    }

    Set<String> names() {
        Set<String> names = new HashSet<>();
        tools.forEach(t -> names.add(t.name()));
        return names;
    }

    /** {@code tools}, {@code tool_choice} and {@code parallel_tool_calls} of a request whose functions have {@code shape}. */
    public static ToolUse parse(RequestFields f, Shape shape) {
        List<Tool> tools = tools(f, shape);
        boolean parallel = f.optBoolean("parallel_tool_calls").orElse(true);
        JsonNode node = f.raw("tool_choice");
        if (shape == Shape.NESTED) {
            GenerationFields.unsupported(f, "functions", "'functions' is deprecated and not supported; send 'tools'.");
            GenerationFields.unsupported(
                    f, "function_call", "'function_call' is deprecated and not supported; send 'tool_choice'.");
        }
        Choice choice = tools.isEmpty() ? Choice.NONE : Choice.AUTO;
        String named = null;
        String namedPath = null;
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
            RequestFields fn = function(c, "tool_choice", shape);
            named = fn.requiredString("name");
            namedPath = fn.path("name");
            rejectUnknown(c, fn);
            choice = Choice.NAMED;
        }
        if ((choice == Choice.REQUIRED || choice == Choice.NAMED) && tools.isEmpty()) {
            throw f.invalid("tool_choice", "'tool_choice' requires 'tools' to name at least one function.");
        }
        if (named != null) {
            String wanted = named;
            if (tools.stream().noneMatch(t -> t.name().equals(wanted))) {
                throw new InvalidRequestException(
                        namedPath,
                        "Invalid 'tool_choice': no function named '" + named + "' is in 'tools'.",
                        "invalid_value");
            }
        }
        return new ToolUse(tools, choice, named, parallel);
    }

    /**
     * The function fields of an item whose {@code type} must be {@code function} (a tool, a tool
     * choice, an assistant's call): OpenAI's one kind of tool here. Chat nests them under
     * {@code function}.
     *
     * @param what the items' name in messages ("tools", "tool calls")
     */
    static RequestFields function(RequestFields item, String what) {
        return function(item, what, Shape.NESTED);
    }

    private static RequestFields function(RequestFields item, String what, Shape shape) {
        String type = item.requiredString("type");
        if (!"function".equals(type)) {
            throw item.invalid(
                    "type",
                    "Invalid value for '" + item.path("type") + "': '" + type + "'. Only " + what
                            + " of type 'function' are supported.",
                    "invalid_value");
        }
        if (shape == Shape.FLAT) {
            return item;
        }
        JsonNode function = item.raw("function");
        if (function == null) {
            throw item.missing("function");
        }
        return RequestFields.nested(function, item.path("function"));
    }

    /** Deals with the unknown fields of an item and of its function fields, which are the item's own when flat. */
    private static void rejectUnknown(RequestFields item, RequestFields fn) {
        fn.rejectUnknown();
        if (fn != item) {
            item.rejectUnknown();
        }
    }

    private static List<Tool> tools(RequestFields f, Shape shape) {
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
            RequestFields fn = function(t, "tools", shape);
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
            boolean strict = fn.optBoolean("strict").orElse(shape == Shape.FLAT);
            rejectUnknown(t, fn);
            @SuppressWarnings("unchecked")
            Map<String, Object> parameters = params == null
                    ? Map.of("type", "object", "properties", Map.of())
                    : (Map<String, Object>) JsonValues.plain(params);
            String functionPath = shape == Shape.NESTED ? path + ".function" : path;
            tools.add(new Tool(name, description, parameters, strict, template(node.get(i), shape), functionPath));
        }
        return List.copyOf(tools);
    }

    /** A tool as chat templates take it, in chat's nested shape whatever the request's. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> template(JsonNode tool, Shape shape) {
        Map<String, Object> plain = (Map<String, Object>) JsonValues.plain(tool);
        if (shape == Shape.NESTED) {
            return plain;
        }
        Map<String, Object> function = new LinkedHashMap<>(plain);
        function.remove("type");
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("type", "function");
        nested.put("function", function);
        return nested;
    }
}
