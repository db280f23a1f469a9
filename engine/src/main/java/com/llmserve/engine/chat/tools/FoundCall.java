package com.llmserve.engine.chat.tools;

import java.util.Map;
import java.util.function.Predicate;

/**
 * A call read from a model's output, before it gets its id.
 *
 * @param name      the function's name
 * @param arguments the JSON text of the arguments object
 */
record FoundCall(String name, String arguments) {

    /**
     * The call that a JSON object {@code {"name": ..., "arguments": ...}} describes ({@code
     * "parameters"} stands for {@code "arguments"}, as Llama 3 writes it), or null when {@code json}
     * is no such object or names a function the request does not offer.
     */
    static FoundCall of(Object json, Predicate<String> knownTool) {
        if (!(json instanceof Map<?, ?> object) || !(object.get("name") instanceof String name)) {
            return null;
        }
        Object arguments = object.containsKey("arguments") ? object.get("arguments") : object.get("parameters");
        return named(name, arguments(arguments), knownTool);
    }

    /** The call, or null when the arguments are not a JSON object or the name is not a known tool. */
    static FoundCall named(String name, String arguments, Predicate<String> knownTool) {
        return arguments != null && !name.isBlank() && knownTool.test(name) ? new FoundCall(name, arguments) : null;
    }

    /**
     * The arguments' JSON text: an object written back compactly, or a string that holds an object's
     * JSON as it is (some models quote their arguments, as OpenAI's API sends them); null otherwise.
     */
    static String arguments(Object value) {
        return switch (value) {
            case Map<?, ?> object -> StrictJson.write(object);
            case String text when StrictJson.readObject(text) != null -> text;
            case null, default -> null;
        };
    }
}
