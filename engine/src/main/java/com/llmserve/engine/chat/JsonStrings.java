package com.llmserve.engine.chat;

import java.util.Locale;

/**
 * A JSON string literal, written as Python's {@code json.dumps(ensure_ascii=False)} writes it
 * (what chat templates' {@code tojson} and models' tool-call arguments look like): the short
 * escapes, other control characters as {@code \\u00XX}, everything else as itself, except halves of
 * surrogate pairs written apart ({@code "\ud800"}), which have no UTF-8 form and stay escapes.
 */
public final class JsonStrings {

    private JsonStrings() {}

    /** Appends {@code s} to {@code out} as a quoted JSON string. */
    public static void quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c) && !pairedSurrogate(s, i)) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static boolean pairedSurrogate(String s, int i) {
        char c = s.charAt(i);
        return Character.isHighSurrogate(c)
                ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
                : i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
