package com.llmserve.engine.chat.tools;

import java.util.List;
import java.util.function.Predicate;

/**
 * Hermes's calls, which Qwen2.5, Qwen3, Hermes 2 Pro and 3 and many fine-tunes write: each call a
 * JSON object {@code {"name": ..., "arguments": {...}}} between {@code <tool_call>} and
 * {@code </tool_call>}, one block per call, content before them.
 *
 * <p>A block that is not a call (bad JSON, no name, a tool the request does not offer) or that has
 * no end when the output ends is content, as vLLM and llama.cpp leave it; only its opening tag is
 * given up, so that a good block after it is still a call.
 */
final class HermesScanner implements Scanner {

    static final String OPEN = "<tool_call>";
    static final String CLOSE = "</tool_call>";

    private final Predicate<String> knownTool;

    HermesScanner(Predicate<String> knownTool) {
        this.knownTool = knownTool;
    }

    @Override
    public Piece next(String text, int from, boolean ended) {
        if (!text.startsWith(OPEN, from)) {
            int end = Markers.textEnd(text, from, ended, List.of(OPEN));
            return end > from ? new Piece.Content(text.substring(from, end), end) : null;
        }
        int body = from + OPEN.length();
        int close = text.indexOf(CLOSE, body);
        if (close < 0 && !ended) {
            return null;
        }
        FoundCall call = close < 0 ? null : FoundCall.of(StrictJson.readObject(text.substring(body, close)), knownTool);
        return call != null ? new Piece.Calls(List.of(call), close + CLOSE.length()) : new Piece.Content(OPEN, body);
    }
}
