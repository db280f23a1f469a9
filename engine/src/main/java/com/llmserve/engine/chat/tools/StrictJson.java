package com.llmserve.engine.chat.tools;

import com.llmserve.engine.chat.JsonStrings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON of RFC 8259 and nothing more (no comments, single quotes, trailing commas or NaN), read
 * from a model's output and written back compactly: the engine has no JSON library at run time,
 * and a call is only a call when its JSON is valid.
 *
 * <p>The reader tells a text that stops too soon ({@link Failure#INCOMPLETE}) from a wrong one
 * ({@link Failure#INVALID}), so that a stream can wait for more in the first case. A text is only
 * invalid when some character it has already rules it out: every text that starts with an invalid
 * one is invalid too.
 *
 * <p>Values are {@code Map<String, Object>} (keys in the order written), {@code List<Object>},
 * {@code String}, {@link JsonNumber}, {@code Boolean} and {@code null}.
 */
final class StrictJson {

    /** Deeper nesting is refused, rather than letting a model's output exhaust the stack. */
    private static final int MAX_DEPTH = 256;

    private StrictJson() {}

    /** What {@link #read} found. */
    sealed interface Result permits Value, Failure {}

    /**
     * A value.
     *
     * @param end where the text after the value starts
     */
    record Value(Object value, int end) implements Result {}

    /** No value. */
    enum Failure implements Result {
        /** The text ends inside the value: more text may complete it. */
        INCOMPLETE,
        /** No text that follows can make it a value. */
        INVALID
    }

    /** A number, kept as written so that writing it back changes no digit. */
    record JsonNumber(String literal) {}

    /** Reads the value that starts at {@code from}, after optional whitespace. */
    static Result read(String text, int from) {
        Reader reader = new Reader(text, from);
        try {
            Object value = reader.value(0);
            return new Value(value, reader.at);
        } catch (Stop stop) {
            return stop.failure;
        }
    }

    /** The object that is the whole text (whitespace around it aside), or null if it is not one. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> readObject(String text) {
        if (read(text, 0) instanceof Value(Map<?, ?> object, int end) && skipWhitespace(text, end) == text.length()) {
            return (Map<String, Object>) object;
        }
        return null;
    }

    /** Where the text from {@code from} on stops being JSON whitespace. */
    static int skipWhitespace(String text, int from) {
        int at = from;
        while (at < text.length() && isWhitespace(text.charAt(at))) {
            at++;
        }
        return at;
    }

    /** Writes a value that {@link #read} returned, without whitespace: {@code {"a":[1,"b"]}}. */
    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value);
        return out.toString();
    }

    private static void write(StringBuilder out, Object value) {
        switch (value) {
            case null -> out.append("null");
            case Boolean b -> out.append(b);
            case JsonNumber n -> out.append(n.literal());
            case String s -> JsonStrings.quote(out, s);
            case Map<?, ?> object -> {
                out.append('{');
                String separator = "";
                for (Map.Entry<?, ?> entry : object.entrySet()) {
                    out.append(separator);
                    JsonStrings.quote(out, (String) entry.getKey());
                    out.append(':');
                    write(out, entry.getValue());
                    separator = ",";
                }
                out.append('}');
            }
            case List<?> array -> {
                out.append('[');
                for (int i = 0; i < array.size(); i++) {
                    out.append(i > 0 ? "," : "");
                    write(out, array.get(i));
                }
                out.append(']');
            }
            default -> throw new IllegalArgumentException("not a JSON value: " + value.getClass());
        }
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    /** Why reading stopped; thrown from deep inside a value, without a stack trace. */
    private static final class Stop extends RuntimeException {
        private static final Stop INCOMPLETE = new Stop(Failure.INCOMPLETE);
        private static final Stop INVALID = new Stop(Failure.INVALID);

        final Failure failure;

        private Stop(Failure failure) {
            super(failure.name(), null, false, false);
            this.failure = failure;
        }
    }

    private static final class Reader {
        private final String text;
        private int at;

        Reader(String text, int from) {
            this.text = text;
            this.at = from;
        }

        Object value(int depth) {
            if (depth > MAX_DEPTH) {
                throw Stop.INVALID;
            }
            at = skipWhitespace(text, at);
            return switch (peek()) {
                case '{' -> object(depth);
                case '[' -> array(depth);
                case '"' -> string();
                case 't' -> literal("true", Boolean.TRUE);
                case 'f' -> literal("false", Boolean.FALSE);
                case 'n' -> literal("null", null);
                default -> number();
            };
        }

        private Map<String, Object> object(int depth) {
            Map<String, Object> object = new LinkedHashMap<>();
            at++;
            at = skipWhitespace(text, at);
            if (peek() == '}') {
                at++;
                return object;
            }
            while (true) {
                at = skipWhitespace(text, at);
                if (peek() != '"') {
                    throw Stop.INVALID;
                }
                String key = string();
                at = skipWhitespace(text, at);
                expect(':');
                object.put(key, value(depth + 1));
                at = skipWhitespace(text, at);
                char c = next();
                if (c == '}') {
                    return object;
                }
                if (c != ',') {
                    throw Stop.INVALID;
                }
            }
        }

        private List<Object> array(int depth) {
            List<Object> array = new ArrayList<>();
            at++;
            at = skipWhitespace(text, at);
            if (peek() == ']') {
                at++;
                return array;
            }
            while (true) {
                array.add(value(depth + 1));
                at = skipWhitespace(text, at);
                char c = next();
                if (c == ']') {
                    return array;
                }
                if (c != ',') {
                    throw Stop.INVALID;
                }
            }
        }

        private String string() {
            StringBuilder s = new StringBuilder();
            at++;
            while (true) {
                char c = next();
                switch (c) {
                    case '"' -> {
                        return s.toString();
                    }
                    case '\\' -> s.append(escape());
                    default -> {
                        if (c < 0x20) {
                            throw Stop.INVALID;
                        }
                        s.append(c);
                    }
                }
            }
        }

        private char escape() {
            return switch (next()) {
                case '"' -> '"';
                case '\\' -> '\\';
                case '/' -> '/';
                case 'b' -> '\b';
                case 'f' -> '\f';
                case 'n' -> '\n';
                case 'r' -> '\r';
                case 't' -> '\t';
                case 'u' -> {
                    int code = 0;
                    for (int i = 0; i < 4; i++) {
                        int digit = Character.digit(next(), 16);
                        if (digit < 0) {
                            throw Stop.INVALID;
                        }
                        code = code * 16 + digit;
                    }
                    yield (char) code;
                }
                default -> throw Stop.INVALID;
            };
        }

        private Object literal(String word, Object value) {
            for (int i = 0; i < word.length(); i++) {
                if (next() != word.charAt(i)) {
                    throw Stop.INVALID;
                }
            }
            return value;
        }

        /** {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}; a number at the end of the text may go on. */
        private JsonNumber number() {
            int start = at;
            if (peek() == '-') {
                at++;
            }
            if (peek() == '0') {
                at++;
            } else {
                digits();
            }
            if (peek() == '.') {
                at++;
                digits();
            }
            if (peek() == 'e' || peek() == 'E') {
                at++;
                if (peek() == '+' || peek() == '-') {
                    at++;
                }
                digits();
            }
            return new JsonNumber(text.substring(start, at));
        }

        /** One digit or more. */
        private void digits() {
            if (!isDigit(peek())) {
                throw Stop.INVALID;
            }
            while (isDigit(peek())) {
                at++;
            }
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        private void expect(char c) {
            if (next() != c) {
                throw Stop.INVALID;
            }
        }

        private char peek() {
            if (at >= text.length()) {
                throw Stop.INCOMPLETE;
            }
            return text.charAt(at);
        }

        private char next() {
            char c = peek();
            at++;
            return c;
        }
    }
}
