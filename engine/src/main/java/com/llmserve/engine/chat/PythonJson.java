package com.llmserve.engine.chat;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON as Python's {@code json.dumps(x, ensure_ascii=False, indent=indent, sort_keys=sort_keys)}
 * writes it, which is what Hugging Face's {@code tojson} filter produces: {@code ", "} and
 * {@code ": "} between items without indent, {@code ","} and a newline with it, non-ASCII text
 * as is. Templates paste this text into prompts the model was trained on, so the spacing matters.
 */
final class PythonJson {

    private PythonJson() {}

    static String dumps(Object value, Integer indent, boolean sortKeys) {
        StringBuilder out = new StringBuilder();
        write(out, value, indent, sortKeys, 0);
        return out.toString();
    }

    private static void write(StringBuilder out, Object value, Integer indent, boolean sortKeys, int level) {
        switch (value) {
            case null -> out.append("null");
            case Boolean b -> out.append(b ? "true" : "false");
            case Integer i -> out.append(i);
            case Long l -> out.append(l);
            case Short s -> out.append(s);
            case Byte b -> out.append(b);
            case Double d -> out.append(floatRepr(d));
            case Float f -> out.append(floatRepr(f.doubleValue()));
            case Number n -> out.append(n);
            case Map<?, ?> map -> {
                Map<?, ?> entries = sortKeys ? new TreeMap<>(stringKeys(map)) : map;
                writeContainer(out, '{', '}', new ArrayList<>(entries.entrySet()), indent, sortKeys, level);
            }
            case Collection<?> c -> writeContainer(out, '[', ']', new ArrayList<>(c), indent, sortKeys, level);
            case Object a
            when a.getClass().isArray() -> {
                List<Object> items = new ArrayList<>();
                for (int i = 0; i < Array.getLength(a); i++) {
                    items.add(Array.get(a, i));
                }
                writeContainer(out, '[', ']', items, indent, sortKeys, level);
            }
            default -> JsonStrings.quote(out, value.toString());
        }
    }

    private static Map<String, Object> stringKeys(Map<?, ?> map) {
        Map<String, Object> copy = new java.util.LinkedHashMap<>();
        map.forEach((k, v) -> copy.put(String.valueOf(k), v));
        return copy;
    }

    private static void writeContainer(
            StringBuilder out, char open, char close, List<?> items, Integer indent, boolean sortKeys, int level) {
        out.append(open);
        if (items.isEmpty()) {
            out.append(close);
            return;
        }
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                out.append(indent == null ? ", " : ",");
            }
            if (indent != null) {
                newline(out, indent, level + 1);
            }
            if (items.get(i) instanceof Map.Entry<?, ?> e) {
                JsonStrings.quote(out, String.valueOf(e.getKey()));
                out.append(": ");
                write(out, e.getValue(), indent, sortKeys, level + 1);
            } else {
                write(out, items.get(i), indent, sortKeys, level + 1);
            }
        }
        if (indent != null) {
            newline(out, indent, level);
        }
        out.append(close);
    }

    private static void newline(StringBuilder out, int indent, int level) {
        out.append('\n').append(" ".repeat(indent * level));
    }

    /** Python's {@code repr(float)}: shortest round-trip digits, positional for 1e-4 <= |d| < 1e16. */
    static String floatRepr(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        if (d == 0) {
            return (1 / d < 0) ? "-0.0" : "0.0";
        }
        java.math.BigDecimal exact = new java.math.BigDecimal(Double.toString(d)).stripTrailingZeros();
        int exponent = exact.precision() - exact.scale() - 1;
        if (exponent >= -4 && exponent < 16) {
            String plain = exact.toPlainString();
            return plain.contains(".") ? plain : plain + ".0";
        }
        String digits = exact.unscaledValue().abs().toString();
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return (d < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+")
                + String.format(java.util.Locale.ROOT, "%02d", Math.abs(exponent));
    }
}
