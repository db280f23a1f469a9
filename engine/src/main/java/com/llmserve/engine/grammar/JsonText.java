package com.llmserve.engine.grammar;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * Writes schema values ({@code const}, {@code enum}, property names) as compact JSON text, the
 * exact text the grammar then requires. The engine has no JSON library, and the values arrive as
 * plain Java maps, lists, strings, numbers, booleans and nulls.
 */
final class JsonText {

    private JsonText() {}

    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    /** A JSON string literal, quotes included. */
    static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        s.codePoints().forEach(cp -> out.append(escape(cp)));
        return out.append('"').toString();
    }

    /**
     * The one spelling the grammars use for a character inside a JSON string: itself, or an escape
     * for the quote, the backslash and the control characters, which JSON forbids raw.
     */
    static String escape(int cp) {
        return switch (cp) {
            case '"' -> "\\\"";
            case '\\' -> "\\\\";
            case '\b' -> "\\b";
            case '\f' -> "\\f";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            default -> cp < 0x20 ? String.format("\\u%04x", cp) : Character.toString(cp);
        };
    }

    /** Whether two JSON values are equal the way JSON Schema compares them: numbers by value. */
    static boolean same(Object a, Object b) {
        return switch (a) {
            case Number x
            when b instanceof Number y -> SchemaKeywords.decimal(x).compareTo(SchemaKeywords.decimal(y)) == 0;
            case List<?> x
            when b instanceof List<?> y -> {
                boolean equal = x.size() == y.size();
                for (int i = 0; equal && i < x.size(); i++) {
                    equal = same(x.get(i), y.get(i));
                }
                yield equal;
            }
            case Map<?, ?> x
            when b instanceof Map<?, ?> y ->
                x.size() == y.size()
                        && x.entrySet().stream()
                                .allMatch(e -> y.containsKey(e.getKey()) && same(e.getValue(), y.get(e.getKey())));
            case null -> b == null;
            default -> a.equals(b);
        };
    }

    private static void write(Object value, StringBuilder out) {
        switch (value) {
            case null -> out.append("null");
            case String s -> out.append(quote(s));
            case Boolean b -> out.append(b);
            case Double d when d.isNaN() || d.isInfinite() -> throw notJson(value);
            case Float f when f.isNaN() || f.isInfinite() -> throw notJson(value);
            case Integer _, Long _, Short _, Byte _, BigInteger _, BigDecimal _, Double _, Float _ -> out.append(value);
            case Map<?, ?> m -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (!(e.getKey() instanceof String key)) {
                        throw notJson(e.getKey());
                    }
                    out.append(first ? "" : ",").append(quote(key)).append(':');
                    write(e.getValue(), out);
                    first = false;
                }
                out.append('}');
            }
            case List<?> l -> {
                out.append('[');
                for (int i = 0; i < l.size(); i++) {
                    out.append(i == 0 ? "" : ",");
                    write(l.get(i), out);
                }
                out.append(']');
            }
            default -> throw notJson(value);
        }
    }

    private static GrammarException notJson(Object value) {
        String type = value == null ? "null" : value.getClass().getSimpleName();
        return new GrammarException("not a JSON value: " + value + " (" + type + ")");
    }
}
