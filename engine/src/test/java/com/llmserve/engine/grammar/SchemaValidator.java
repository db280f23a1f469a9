package com.llmserve.engine.grammar;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A small JSON Schema validator for the keywords the grammar compiler supports, written apart from
 * it so the property tests check the compiler against the standard's meaning. Instances are
 * Jackson's plain values (maps, lists, strings, numbers, booleans, null).
 */
final class SchemaValidator {

    private final Object root;

    SchemaValidator(Object root) {
        this.root = root;
    }

    /** The violations of the instance, each with its JSON pointer; empty when it validates. */
    List<String> errors(Object instance) {
        List<String> out = new ArrayList<>();
        check(instance, root, "", out);
        return out;
    }

    @SuppressWarnings("unchecked")
    private void check(Object v, Object schema, String at, List<String> out) {
        if (schema instanceof Boolean b) {
            if (!b) {
                out.add(at + ": false schema");
            }
            return;
        }
        Map<String, Object> s = (Map<String, Object>) schema;
        if (s.get("$ref") instanceof String ref) {
            check(v, resolve(ref), at, out);
        }
        if (s.get("type") != null) {
            List<Object> types = s.get("type") instanceof List<?> l ? (List<Object>) l : List.of(s.get("type"));
            if (types.stream().noneMatch(t -> isOfType(v, (String) t))) {
                out.add(at + ": not of type " + types);
            }
        }
        if (s.containsKey("const") && !same(v, s.get("const"))) {
            out.add(at + ": not the const");
        }
        if (s.get("enum") instanceof List<?> values && values.stream().noneMatch(e -> same(v, e))) {
            out.add(at + ": not in the enum");
        }
        if (s.get("allOf") instanceof List<?> parts) {
            parts.forEach(p -> check(v, p, at, out));
        }
        if (s.get("anyOf") instanceof List<?> parts && parts.stream().noneMatch(p -> valid(v, p))) {
            out.add(at + ": no anyOf alternative matches");
        }
        if (s.get("oneOf") instanceof List<?> parts
                && parts.stream().filter(p -> valid(v, p)).count() != 1) {
            out.add(at + ": not exactly one oneOf alternative matches");
        }
        switch (v) {
            case String str -> checkString(str, s, at, out);
            case Number n -> checkNumber(new BigDecimal(n.toString()), s, at, out);
            case Map<?, ?> m -> checkObject((Map<String, Object>) m, s, at, out);
            case List<?> l -> checkArray(l, s, at, out);
            case null, default -> {}
        }
    }

    private boolean valid(Object v, Object schema) {
        List<String> errors = new ArrayList<>();
        check(v, schema, "", errors);
        return errors.isEmpty();
    }

    private static void checkString(String str, Map<String, Object> s, String at, List<String> out) {
        int length = str.codePointCount(0, str.length());
        if (s.get("minLength") instanceof Number n && length < n.intValue()) {
            out.add(at + ": shorter than minLength");
        }
        if (s.get("maxLength") instanceof Number n && length > n.intValue()) {
            out.add(at + ": longer than maxLength");
        }
        if (s.get("pattern") instanceof String p
                && !Pattern.compile(p).matcher(str).find()) {
            out.add(at + ": does not match " + p);
        }
        if (s.get("format") instanceof String f && !hasFormat(str, f)) {
            out.add(at + ": not a " + f);
        }
    }

    private static boolean hasFormat(String str, String format) {
        try {
            switch (format) {
                case "date" -> LocalDate.parse(str);
                case "time" -> OffsetTime.parse(str);
                case "date-time" -> OffsetDateTime.parse(str);
                case "uuid" -> {
                    return str.matches("[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}");
                }
                default -> throw new IllegalArgumentException(format);
            }
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static void checkNumber(BigDecimal n, Map<String, Object> s, String at, List<String> out) {
        if (s.get("minimum") instanceof Number m && n.compareTo(new BigDecimal(m.toString())) < 0) {
            out.add(at + ": below minimum");
        }
        if (s.get("maximum") instanceof Number m && n.compareTo(new BigDecimal(m.toString())) > 0) {
            out.add(at + ": above maximum");
        }
        if (s.get("exclusiveMinimum") instanceof Number m && n.compareTo(new BigDecimal(m.toString())) <= 0) {
            out.add(at + ": not above exclusiveMinimum");
        }
        if (s.get("exclusiveMaximum") instanceof Number m && n.compareTo(new BigDecimal(m.toString())) >= 0) {
            out.add(at + ": not below exclusiveMaximum");
        }
    }

    @SuppressWarnings("unchecked")
    private void checkObject(Map<String, Object> m, Map<String, Object> s, String at, List<String> out) {
        Map<String, Object> properties = (Map<String, Object>) s.getOrDefault("properties", Map.of());
        if (s.get("required") instanceof List<?> required) {
            required.stream().filter(r -> !m.containsKey(r)).forEach(r -> out.add(at + ": lacks " + r));
        }
        for (Map.Entry<String, Object> e : m.entrySet()) {
            String p = at + "/" + e.getKey();
            if (properties.containsKey(e.getKey())) {
                check(e.getValue(), properties.get(e.getKey()), p, out);
            } else if (s.containsKey("additionalProperties")) {
                check(e.getValue(), s.get("additionalProperties"), p, out);
            }
        }
    }

    private void checkArray(List<?> l, Map<String, Object> s, String at, List<String> out) {
        List<?> prefix = s.get("prefixItems") instanceof List<?> p ? p : List.of();
        for (int i = 0; i < l.size(); i++) {
            Object schema = i < prefix.size() ? prefix.get(i) : s.getOrDefault("items", true);
            check(l.get(i), schema, at + "/" + i, out);
        }
        if (s.get("minItems") instanceof Number n && l.size() < n.intValue()) {
            out.add(at + ": fewer than minItems");
        }
        if (s.get("maxItems") instanceof Number n && l.size() > n.intValue()) {
            out.add(at + ": more than maxItems");
        }
    }

    private static boolean isOfType(Object v, String type) {
        return switch (type) {
            case "null" -> v == null;
            case "boolean" -> v instanceof Boolean;
            case "string" -> v instanceof String;
            case "object" -> v instanceof Map;
            case "array" -> v instanceof List;
            case "number" -> v instanceof Number;
            case "integer" ->
                v instanceof Number n
                        && new BigDecimal(n.toString()).stripTrailingZeros().scale() <= 0;
            default -> throw new IllegalArgumentException(type);
        };
    }

    private static boolean same(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!same(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            return x.keySet().equals(y.keySet()) && x.keySet().stream().allMatch(k -> same(x.get(k), y.get(k)));
        }
        return Objects.equals(a, b);
    }

    private Object resolve(String ref) {
        Object node = root;
        if (!ref.equals("#")) {
            for (String step : ref.substring(2).split("/")) {
                node = ((Map<?, ?>) node).get(step.replace("~1", "/").replace("~0", "~"));
            }
        }
        return Objects.requireNonNull(node, ref);
    }
}
