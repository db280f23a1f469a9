package com.llmserve.engine.chat.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Mistral's calls, after the control token {@code [TOOL_CALLS]}: a JSON array of call objects
 * ({@code [TOOL_CALLS][{"name": ..., "arguments": {...}}, ...]}, Mistral 7B v0.3, Nemo, Small
 * before 3.1), or a name and its arguments ({@code [TOOL_CALLS]f[ARGS]{...}}, the tekken v11
 * tokenizers on), each further call after its own {@code [TOOL_CALLS]}.
 *
 * <p>When what follows the token is not a call, the token alone is content and the text after it
 * is read again, so that a good call after a bad one is still a call.
 */
final class MistralScanner implements Scanner {

    static final String TOOL_CALLS = "[TOOL_CALLS]";
    static final String ARGS = "[ARGS]";

    private final Predicate<String> knownTool;

    MistralScanner(Predicate<String> knownTool) {
        this.knownTool = knownTool;
    }

    @Override
    public Piece next(String text, int from, boolean ended) {
        if (!text.startsWith(TOOL_CALLS, from)) {
            int end = Markers.textEnd(text, from, ended, List.of(TOOL_CALLS));
            return end > from ? new Piece.Content(text.substring(from, end), end) : null;
        }
        int start = StrictJson.skipWhitespace(text, from + TOOL_CALLS.length());
        if (start == text.length()) {
            return ended ? notACall(from) : null;
        }
        return text.charAt(start) == '[' ? array(text, from, start, ended) : named(text, from, start, ended);
    }

    /** {@code [{"name": ..., "arguments": ...}, ...]} at {@code start}. */
    private Piece array(String text, int from, int start, boolean ended) {
        return switch (StrictJson.read(text, start)) {
            case StrictJson.Value(List<?> objects, int end) -> {
                List<FoundCall> calls = new ArrayList<>();
                for (Object object : objects) {
                    FoundCall call = FoundCall.of(object, knownTool);
                    if (call == null) {
                        yield notACall(from);
                    }
                    calls.add(call);
                }
                yield calls.isEmpty() ? notACall(from) : new Piece.Calls(calls, end);
            }
            case StrictJson.Value value -> notACall(from);
            case StrictJson.Failure failure -> waitOrGiveUp(failure, from, ended);
        };
    }

    /** {@code NAME[ARGS]{...}} at {@code start}. */
    private Piece named(String text, int from, int start, boolean ended) {
        int nameEnd = start;
        while (nameEnd < text.length() && isNameChar(text.charAt(nameEnd))) {
            nameEnd++;
        }
        if (!text.startsWith(ARGS, nameEnd)) {
            boolean argsMayFollow = ARGS.startsWith(text.substring(nameEnd));
            return argsMayFollow && !ended ? null : notACall(from);
        }
        return switch (StrictJson.read(text, nameEnd + ARGS.length())) {
            case StrictJson.Value(Object arguments, int end) -> {
                FoundCall call =
                        FoundCall.named(text.substring(start, nameEnd), FoundCall.arguments(arguments), knownTool);
                yield call != null ? new Piece.Calls(List.of(call), end) : notACall(from);
            }
            case StrictJson.Failure failure -> waitOrGiveUp(failure, from, ended);
        };
    }

    /** The characters OpenAI allows in a function's name. */
    private static boolean isNameChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-';
    }

    private static Piece waitOrGiveUp(StrictJson.Failure failure, int from, boolean ended) {
        return failure == StrictJson.Failure.INCOMPLETE && !ended ? null : notACall(from);
    }

    private static Piece notACall(int from) {
        return new Piece.Content(TOOL_CALLS, from + TOOL_CALLS.length());
    }
}
