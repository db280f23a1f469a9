package com.llmserve.engine.chat.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Llama 3.1, 3.2 and 3.3's JSON calls: the whole output is a call object {@code {"name": ...,
 * "parameters": {...}}} ({@code "arguments"} taken too), or several separated by {@code ;},
 * optionally after {@code <|python_tag|>}. Nothing marks these calls but their shape, so output is
 * only calls when all of it is, as vLLM's and llama.cpp's parsers decide; a JSON answer the user
 * asked for must not become a call because it starts with a brace. Output that starts like a call
 * is therefore held until it ends.
 */
final class Llama3Scanner implements Scanner {

    static final String PYTHON_TAG = "<|python_tag|>";

    private final Predicate<String> knownTool;
    private boolean content;

    Llama3Scanner(Predicate<String> knownTool) {
        this.knownTool = knownTool;
    }

    @Override
    public Piece next(String text, int from, boolean ended) {
        if (!content) {
            int start = StrictJson.skipWhitespace(text, from);
            if (!ended && (start == text.length() || mayBeCalls(text, start))) {
                return null;
            }
            List<FoundCall> calls = ended ? calls(text, start) : null;
            if (calls != null) {
                return new Piece.Calls(calls, text.length());
            }
            content = true;
        }
        return new Piece.Content(text.substring(from), text.length());
    }

    private static boolean mayBeCalls(String text, int start) {
        String rest = text.substring(start);
        return rest.startsWith("{") || rest.startsWith(PYTHON_TAG) || PYTHON_TAG.startsWith(rest);
    }

    /** The calls that are all of {@code text[start:]}, or null. */
    private List<FoundCall> calls(String text, int start) {
        int at = text.startsWith(PYTHON_TAG, start) ? start + PYTHON_TAG.length() : start;
        List<FoundCall> calls = new ArrayList<>();
        while (true) {
            if (!(StrictJson.read(text, at) instanceof StrictJson.Value(Object json, int end))) {
                return null;
            }
            FoundCall call = FoundCall.of(json, knownTool);
            if (call == null) {
                return null;
            }
            calls.add(call);
            at = StrictJson.skipWhitespace(text, end);
            if (at < text.length() && text.charAt(at) == ';') {
                at = StrictJson.skipWhitespace(text, at + 1);
            } else if (at < text.length()) {
                return null;
            }
            if (at == text.length()) {
                return calls;
            }
        }
    }
}
