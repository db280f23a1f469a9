package com.llmserve.engine.chat.tools;

import java.util.Objects;

/**
 * A function call that a model wrote, as OpenAI's API returns it in {@code tool_calls}.
 *
 * @param id        the id that the tool's result will answer to ({@link ToolCallFormat#newCallId()})
 * @param name      the function's name
 * @param arguments the JSON text of the arguments object: what the model wrote, written back
 *                  compactly, or, when the model wrote a string that holds the JSON, that string
 */
public record ToolCall(String id, String name, String arguments) {

    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
    }
}
