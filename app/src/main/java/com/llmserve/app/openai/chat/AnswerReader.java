package com.llmserve.app.openai.chat;

import com.llmserve.engine.chat.ReasoningSplitter;
import com.llmserve.engine.chat.tools.StreamEvent;
import com.llmserve.engine.chat.tools.StreamingToolCallParser;
import com.llmserve.engine.chat.tools.ToolCallFormat;
import com.llmserve.engine.chat.tools.ToolCallParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads one choice's generated text into what the chat API reports: the thinking
 * ({@code reasoning_content}), the content, and tool calls. Streamed and whole answers go through
 * the same reader (a whole answer is one feed), so both say the same thing.
 *
 * <p>Not thread-safe: one per choice.
 */
public final class AnswerReader {

    /**
     * How to read a request's answers.
     *
     * @param reasoning       separate {@code <think>} text
     * @param opensThinking   the prompt ends inside the thinking
     * @param tools           read tool calls in this format, or null
     * @param toolNames       the functions that may be called (a call of another stays text)
     */
    public record Options(boolean reasoning, boolean opensThinking, ToolCallFormat tools, Set<String> toolNames) {
        static final Options PLAIN = new Options(false, false, null, Set.of());
    }

    /** New output: each part may be empty. */
    public record Update(String reasoning, String content, List<ChatResponses.ToolCallDelta> calls) {
        public boolean isEmpty() {
            return reasoning.isEmpty() && content.isEmpty() && calls.isEmpty();
        }

        private Update then(Update next) {
            List<ChatResponses.ToolCallDelta> all = new ArrayList<>(calls);
            all.addAll(next.calls);
            return new Update(reasoning + next.reasoning, content + next.content, all);
        }
    }

    private final ReasoningSplitter splitter;
    private final StreamingToolCallParser calls;
    private boolean called;

    public AnswerReader(Options options) {
        this.splitter = options.reasoning() ? new ReasoningSplitter(options.opensThinking()) : null;
        this.calls = options.tools() == null ? null : new ToolCallParser(options.tools()).stream(options.toolNames());
    }

    public Update feed(String text) {
        if (splitter == null) {
            return content("", text, false);
        }
        ReasoningSplitter.Part p = splitter.feed(text);
        return content(p.reasoning(), p.content(), false);
    }

    /** The choice's last text and whatever was held back, as one update. */
    public Update last(String text) {
        return feed(text).then(finish());
    }

    /** What was held back, at the end of the choice. */
    Update finish() {
        if (splitter == null) {
            return content("", "", true);
        }
        ReasoningSplitter.Part p = splitter.finish();
        return content(p.reasoning(), p.content(), true);
    }

    /** Whether at least one tool call was read: the finish reason is then {@code tool_calls}. */
    boolean calledTools() {
        return called;
    }

    private Update content(String reasoning, String text, boolean end) {
        if (calls == null) {
            return new Update(reasoning, text, List.of());
        }
        List<StreamEvent> events = new ArrayList<>(calls.feed(text));
        if (end) {
            events.addAll(calls.finish());
        }
        StringBuilder content = new StringBuilder();
        StringBuilder thinking = new StringBuilder(reasoning);
        List<ChatResponses.ToolCallDelta> deltas = new ArrayList<>();
        for (StreamEvent e : events) {
            switch (e) {
                case StreamEvent.ContentDelta c -> content.append(c.text());
                case StreamEvent.ReasoningDelta r -> thinking.append(r.text()); // gpt-oss's analysis channel
                case StreamEvent.ToolCallStart s -> {
                    called = true;
                    deltas.add(new ChatResponses.ToolCallDelta(
                            s.index(), s.id(), "function", new ChatResponses.FunctionDelta(s.name(), "")));
                }
                case StreamEvent.ToolCallArguments a ->
                    deltas.add(new ChatResponses.ToolCallDelta(
                            a.index(), null, null, new ChatResponses.FunctionDelta(null, a.fragment())));
            }
        }
        return new Update(thinking.toString(), content.toString(), deltas);
    }

    /** A whole answer: its thinking (null when none), content (null when it only calls tools) and calls. */
    record Answer(String reasoning, String content, List<ChatResponses.ToolCall> calls) {}

    static Answer read(String text, Options options) {
        Update u = new AnswerReader(options).last(text);
        String reasoning = u.reasoning();
        String content = u.content();
        List<ChatResponses.ToolCall> calls = assemble(u.calls());
        return new Answer(
                reasoning.isEmpty() ? null : reasoning, calls.isEmpty() || !content.isBlank() ? content : null, calls);
    }

    /** Whole calls from their streamed pieces. */
    private static List<ChatResponses.ToolCall> assemble(List<ChatResponses.ToolCallDelta> deltas) {
        List<String[]> calls = new ArrayList<>(); // id, name, arguments
        for (ChatResponses.ToolCallDelta d : deltas) {
            while (calls.size() <= d.index()) {
                calls.add(new String[] {null, null, ""});
            }
            String[] c = calls.get(d.index());
            if (d.id() != null) {
                c[0] = d.id();
                c[1] = d.function().name();
            }
            c[2] += d.function().arguments();
        }
        return calls.stream()
                .map(c -> ChatResponses.ToolCall.of(c[0], c[1], c[2]))
                .toList();
    }
}
