package com.llmserve.engine.chat.tools;

/**
 * What a {@link StreamingToolCallParser} gives as output arrives, in the shape of the deltas of
 * OpenAI's streamed chat completions: {@code delta.content}, {@code delta.reasoning_content} and
 * {@code delta.tool_calls[]}.
 */
public sealed interface StreamEvent {

    /** More text for the user. */
    record ContentDelta(String text) implements StreamEvent {}

    /** More of the model's reasoning (gpt-oss's {@code analysis} channel). */
    record ReasoningDelta(String text) implements StreamEvent {}

    /**
     * A call begins: the first {@code tool_calls} delta of call {@code index}, which carries its id
     * and name.
     *
     * @param index the call's place among this output's calls, from 0
     */
    record ToolCallStart(int index, String id, String name) implements StreamEvent {}

    /** More of call {@code index}'s arguments: {@code function.arguments} in a later delta. */
    record ToolCallArguments(int index, String fragment) implements StreamEvent {}
}
