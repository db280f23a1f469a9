package com.llmserve.engine.chat;

/**
 * Separates a reasoning model's thinking ({@code <think>...</think>}, as Qwen3 and the DeepSeek-R1
 * distills write it) from its answer, as text streams in. The thinking is recognised only at the
 * start of the output (after whitespace), or from the first character when the prompt already
 * opened it (DeepSeek-R1's template ends the prompt with {@code <think>}). Text that could still
 * turn out to be a tag is held back until it is decided, so the parts of a streamed output
 * concatenate to the parts of the whole. Whitespace right after either tag is dropped.
 *
 * <p>Not thread-safe: one per choice.
 */
public final class ReasoningSplitter {

    private static final String OPEN = "<think>";
    private static final String CLOSE = "</think>";

    /** New reasoning and new answer text; either may be empty. */
    public record Part(String reasoning, String content) {
        static final Part NONE = new Part("", "");
    }

    private enum Mode {
        START,
        THINKING,
        ANSWER
    }

    private Mode mode;
    private boolean skipWhitespace;
    private final StringBuilder held = new StringBuilder();

    /** @param opened whether the prompt ends inside the thinking (its last non-blank text is {@code <think>}) */
    public ReasoningSplitter(boolean opened) {
        this.mode = opened ? Mode.THINKING : Mode.START;
        this.skipWhitespace = opened;
    }

    /** Whether a rendered prompt leaves the model inside its thinking. */
    public static boolean opensThinking(String prompt) {
        return prompt.stripTrailing().endsWith(OPEN);
    }

    /** Splits a whole output. */
    public static Part split(String text, boolean opened) {
        ReasoningSplitter s = new ReasoningSplitter(opened);
        Part a = s.feed(text);
        Part b = s.finish();
        return new Part(a.reasoning() + b.reasoning(), a.content() + b.content());
    }

    public Part feed(String delta) {
        held.append(delta);
        StringBuilder reasoning = new StringBuilder();
        StringBuilder content = new StringBuilder();
        boolean progress = true;
        while (progress && !held.isEmpty()) {
            progress = switch (mode) {
                case START -> start();
                case THINKING -> thinking(reasoning);
                case ANSWER -> {
                    dropLeadingWhitespace();
                    if (!skipWhitespace) {
                        content.append(held);
                        held.setLength(0);
                    }
                    yield false;
                }
            };
        }
        return reasoning.isEmpty() && content.isEmpty()
                ? Part.NONE
                : new Part(reasoning.toString(), content.toString());
    }

    /** Releases what was held back: an unfinished tag is text after all. */
    public Part finish() {
        String rest = held.toString();
        held.setLength(0);
        return switch (mode) {
            case THINKING -> new Part(rest, "");
            case START, ANSWER -> new Part("", rest);
        };
    }

    /** Before any output: an opening tag after whitespace starts the thinking; anything else is the answer. */
    private boolean start() {
        String text = held.toString();
        String trimmed = text.stripLeading();
        if (trimmed.startsWith(OPEN)) {
            held.delete(0, text.length() - trimmed.length() + OPEN.length());
            mode = Mode.THINKING;
            skipWhitespace = true;
            return true;
        }
        if (trimmed.isEmpty() || OPEN.startsWith(trimmed)) {
            return false; // still undecided
        }
        mode = Mode.ANSWER;
        return true;
    }

    private boolean thinking(StringBuilder reasoning) {
        dropLeadingWhitespace();
        if (skipWhitespace) {
            return false;
        }
        int close = held.indexOf(CLOSE);
        if (close >= 0) {
            reasoning.append(held, 0, close);
            held.delete(0, close + CLOSE.length());
            mode = Mode.ANSWER;
            skipWhitespace = true;
            return true;
        }
        int keep = partialSuffix(held, CLOSE);
        reasoning.append(held, 0, held.length() - keep);
        held.delete(0, held.length() - keep);
        return false;
    }

    private void dropLeadingWhitespace() {
        if (!skipWhitespace) {
            return;
        }
        int i = 0;
        while (i < held.length() && Character.isWhitespace(held.charAt(i))) {
            i++;
        }
        held.delete(0, i);
        if (!held.isEmpty()) {
            skipWhitespace = false;
        }
    }

    /** The length of the longest end of {@code text} that begins {@code tag}. */
    static int partialSuffix(CharSequence text, String tag) {
        for (int n = Math.min(tag.length() - 1, text.length()); n > 0; n--) {
            boolean match = true;
            for (int i = 0; i < n && match; i++) {
                match = text.charAt(text.length() - n + i) == tag.charAt(i);
            }
            if (match) {
                return n;
            }
        }
        return 0;
    }
}
