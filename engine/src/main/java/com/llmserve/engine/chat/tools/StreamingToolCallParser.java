package com.llmserve.engine.chat.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Tells apart one output as it is generated, for a streamed response: fed each new piece of text,
 * it gives the content, reasoning and calls that the text has decided. Text that may yet be a call
 * is held back: the start of a marker ({@code "<tool"}) until it is one or cannot be, a call until
 * its JSON is complete. A call is given whole, its {@link StreamEvent.ToolCallStart} and then all of
 * its arguments in one {@link StreamEvent.ToolCallArguments}: a call given piece by piece could
 * still turn out not to be one, and then its text would have gone out as a call.
 *
 * <p>The whitespace at the end of the content so far is held back too, until content follows it:
 * when the output ends with calls it is dropped, as in {@link ParsedOutput#content()}. Whatever the
 * cuts between deltas, the events add up to what {@link ToolCallParser#parse} returns for the
 * whole text. Made by {@link ToolCallParser#stream()}; one per output, not thread-safe.
 */
public final class StreamingToolCallParser {

    private final OutputSplitter splitter;
    private final Supplier<String> ids;
    private final StringBuilder heldWhitespace = new StringBuilder();
    private int calls;
    private boolean finished;

    StreamingToolCallParser(Scanner scanner, Supplier<String> ids) {
        this.splitter = new OutputSplitter(scanner);
        this.ids = ids;
    }

    /**
     * Reads the next text of the output.
     *
     * @return what the output has decided since the last call; often nothing
     * @throws IllegalStateException after {@link #finish()}
     */
    public List<StreamEvent> feed(String delta) {
        checkNotFinished();
        List<StreamEvent> events = new ArrayList<>();
        splitter.append(delta, piece -> add(piece, events));
        return events;
    }

    /**
     * Ends the output: what was held back is decided, a call left open is content.
     *
     * @return the last events
     * @throws IllegalStateException when called twice
     */
    public List<StreamEvent> finish() {
        checkNotFinished();
        finished = true;
        List<StreamEvent> events = new ArrayList<>();
        splitter.finish(piece -> add(piece, events));
        if (calls == 0 && !heldWhitespace.isEmpty()) {
            events.add(new StreamEvent.ContentDelta(heldWhitespace.toString()));
        }
        return events;
    }

    private void add(Piece piece, List<StreamEvent> events) {
        switch (piece) {
            case Piece.Content content -> addContent(content.text(), events);
            case Piece.Reasoning reasoning -> events.add(new StreamEvent.ReasoningDelta(reasoning.text()));
            case Piece.Calls found -> {
                for (FoundCall call : found.calls()) {
                    int index = calls++;
                    events.add(new StreamEvent.ToolCallStart(index, ids.get(), call.name()));
                    events.add(new StreamEvent.ToolCallArguments(index, call.arguments()));
                }
            }
            case Piece.Markup markup -> {}
        }
    }

    private void addContent(String text, List<StreamEvent> events) {
        int end = text.length();
        while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        if (end > 0) {
            events.add(new StreamEvent.ContentDelta(heldWhitespace + text.substring(0, end)));
            heldWhitespace.setLength(0);
        }
        heldWhitespace.append(text, end, text.length());
    }

    private void checkNotFinished() {
        if (finished) {
            throw new IllegalStateException("the output has ended");
        }
    }
}
