package com.llmserve.engine.chat.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Turns a model's output into OpenAI tool calls, in the model's {@link ToolCallFormat}. Text that
 * looks like a call but is not one (bad JSON, no name, a function the request does not offer, no
 * end) stays content, as vLLM and llama.cpp leave it, rather than failing the request.
 *
 * <p>{@link #parse} is the {@link #stream()} fed the whole text at once, so the two cannot disagree.
 * Thread-safe: each parse and each stream reads on its own.
 */
public final class ToolCallParser {

    private final ToolCallFormat format;
    private final Supplier<String> ids;

    /** A parser whose calls get the format's {@link ToolCallFormat#newCallId() ids}. */
    public ToolCallParser(ToolCallFormat format) {
        this(format, format::newCallId);
    }

    /**
     * A parser whose calls get ids from {@code ids}, one per call in the order written.
     *
     * @param ids called from the threads that parse, so thread-safe where those are several
     */
    public ToolCallParser(ToolCallFormat format, Supplier<String> ids) {
        this.format = Objects.requireNonNull(format, "format");
        this.ids = Objects.requireNonNull(ids, "ids");
    }

    /** The content, reasoning and calls of a complete output, calls to any function taken. */
    public ParsedOutput parse(String text) {
        return parse(stream(), text);
    }

    /** The content, reasoning and calls of a complete output; calls to functions not in {@code toolNames} stay content. */
    public ParsedOutput parse(String text, Set<String> toolNames) {
        return parse(stream(toolNames), text);
    }

    /** A parser for one streamed output, calls to any function taken. */
    public StreamingToolCallParser stream() {
        return stream(name -> true);
    }

    /** A parser for one streamed output; calls to functions not in {@code toolNames} stay content. */
    public StreamingToolCallParser stream(Set<String> toolNames) {
        return stream(Set.copyOf(toolNames)::contains);
    }

    private StreamingToolCallParser stream(Predicate<String> knownTool) {
        return new StreamingToolCallParser(format.scanner(knownTool), ids);
    }

    private static ParsedOutput parse(StreamingToolCallParser stream, String text) {
        List<StreamEvent> events = new ArrayList<>(stream.feed(text));
        events.addAll(stream.finish());
        StringBuilder content = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        List<StreamEvent.ToolCallStart> starts = new ArrayList<>();
        List<StringBuilder> arguments = new ArrayList<>();
        for (StreamEvent event : events) {
            switch (event) {
                case StreamEvent.ContentDelta delta -> content.append(delta.text());
                case StreamEvent.ReasoningDelta delta -> reasoning.append(delta.text());
                case StreamEvent.ToolCallStart start -> {
                    starts.add(start);
                    arguments.add(new StringBuilder());
                }
                case StreamEvent.ToolCallArguments fragment ->
                    arguments.get(fragment.index()).append(fragment.fragment());
            }
        }
        List<ToolCall> calls = new ArrayList<>();
        for (int i = 0; i < starts.size(); i++) {
            calls.add(new ToolCall(
                    starts.get(i).id(), starts.get(i).name(), arguments.get(i).toString()));
        }
        return new ParsedOutput(
                calls.isEmpty() || !content.isEmpty() ? content.toString() : null,
                reasoning.isEmpty() ? null : reasoning.toString(),
                calls);
    }
}
