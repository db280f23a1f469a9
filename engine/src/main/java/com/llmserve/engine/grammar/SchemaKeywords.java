package com.llmserve.engine.grammar;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which JSON Schema keywords the compiler turns into grammar, which it refuses, and typed access to
 * their values. Keywords it does not know are ignored, as JSON Schema says of unknown keywords;
 * those it knows to constrain values but cannot express are refused, so a schema never silently
 * loses a constraint. Annotations ({@code title}, {@code description}, {@code default}, ...) and
 * OpenAPI's {@code nullable} constrain nothing the compiler generates and are ignored.
 */
final class SchemaKeywords {

    /** The keywords that constrain what is generated. */
    static final Set<String> SUPPORTED = Set.of(
            "type",
            "enum",
            "const",
            "anyOf",
            "oneOf",
            "allOf",
            "$ref",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "prefixItems",
            "additionalItems",
            "minItems",
            "maxItems",
            "uniqueItems",
            "minLength",
            "maxLength",
            "format",
            "pattern",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum");

    /** Keywords that constrain values in ways no grammar here expresses. */
    static final Set<String> UNSUPPORTED = Set.of(
            "not",
            "if",
            "then",
            "else",
            "patternProperties",
            "propertyNames",
            "dependentRequired",
            "dependentSchemas",
            "dependencies",
            "unevaluatedProperties",
            "unevaluatedItems",
            "contains",
            "minContains",
            "maxContains",
            "multipleOf",
            "minProperties",
            "maxProperties",
            "$dynamicRef",
            "$recursiveRef");

    static final Set<String> OBJECT = Set.of("properties", "required", "additionalProperties");
    static final Set<String> ARRAY = Set.of("items", "prefixItems", "additionalItems", "minItems", "maxItems");
    static final Set<String> STRING = Set.of("minLength", "maxLength", "pattern", "format");
    static final Set<String> NUMBER = Set.of("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum");

    static final List<String> TYPES = List.of("object", "array", "string", "number", "integer", "boolean", "null");

    private SchemaKeywords() {}

    /**
     * The schema as a map with string keys, after refusing the unsupported keywords it holds.
     *
     * @throws GrammarException when the schema is not an object
     * @throws UnsupportedSchemaException for an unsupported keyword
     */
    static Map<String, Object> checked(Object schema, String path) {
        if (!(schema instanceof Map<?, ?> m)) {
            throw new GrammarException(
                    "the schema at " + path + " must be an object or a boolean, not " + describe(schema));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!(e.getKey() instanceof String key)) {
                throw new GrammarException("the schema at " + path + " has a key that is not a string: " + e.getKey());
            }
            boolean uniqueFalse = key.equals("uniqueItems") && Boolean.FALSE.equals(e.getValue());
            if (UNSUPPORTED.contains(key) || (key.equals("uniqueItems") && !uniqueFalse)) {
                throw new UnsupportedSchemaException(key, path);
            }
            out.put(key, e.getValue());
        }
        return out;
    }

    /** The keywords of {@code schema} that constrain values, but for {@code except}. */
    static Map<String, Object> constraints(Map<String, Object> schema, String... except) {
        Map<String, Object> out = new LinkedHashMap<>();
        schema.forEach((k, v) -> {
            if (SUPPORTED.contains(k) && !List.of(except).contains(k) && !k.equals("uniqueItems")) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** The types named by {@code type}, or null if absent. */
    static List<String> types(Map<String, Object> schema, String path) {
        Object t = schema.get("type");
        if (t == null) {
            return null;
        }
        List<?> names = t instanceof List<?> l ? l : List.of(t);
        List<String> out = new ArrayList<>();
        for (Object n : names) {
            if (!(n instanceof String s) || !TYPES.contains(s)) {
                throw new GrammarException("'type' at " + path + " names no JSON type: " + describe(n));
            }
            if (!out.contains(s)) {
                out.add(s);
            }
        }
        if (out.isEmpty()) {
            throw new GrammarException("'type' at " + path + " is an empty list");
        }
        return out;
    }

    /** Whether a JSON value is of a JSON Schema type; 1.0 is an integer, as JSON Schema has it. */
    static boolean isOfType(Object value, String type) {
        return switch (type) {
            case "null" -> value == null;
            case "boolean" -> value instanceof Boolean;
            case "string" -> value instanceof String;
            case "object" -> value instanceof Map;
            case "array" -> value instanceof List;
            case "number" -> value instanceof Number;
            case "integer" -> value instanceof Number n && isIntegral(decimal(n));
            default -> false;
        };
    }

    static int nonNegativeInt(Map<String, Object> schema, String key, String path, int absent) {
        Object v = schema.get(key);
        if (v == null) {
            return absent;
        }
        if (!(v instanceof Number n) || !isIntegral(decimal(n)) || decimal(n).signum() < 0) {
            throw mustBe(key, path, "a non-negative integer", v);
        }
        try {
            return decimal(n).intValueExact();
        } catch (ArithmeticException e) {
            throw mustBe(key, path, "a non-negative integer that fits in 32 bits", v);
        }
    }

    static BigDecimal number(Map<String, Object> schema, String key, String path) {
        Object v = schema.get(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Number n)) {
            throw mustBe(key, path, "a number", v);
        }
        return decimal(n);
    }

    static String string(Map<String, Object> schema, String key, String path) {
        Object v = schema.get(key);
        if (v != null && !(v instanceof String)) {
            throw mustBe(key, path, "a string", v);
        }
        return (String) v;
    }

    static List<?> list(Map<String, Object> schema, String key, String path) {
        Object v = schema.get(key);
        if (v != null && !(v instanceof List)) {
            throw mustBe(key, path, "an array", v);
        }
        return (List<?>) v;
    }

    static List<?> nonEmptyList(Map<String, Object> schema, String key, String path) {
        List<?> l = list(schema, key, path);
        if (l != null && l.isEmpty()) {
            throw mustBe(key, path, "a non-empty array", l);
        }
        return l;
    }

    static List<String> strings(Map<String, Object> schema, String key, String path) {
        List<String> out = new ArrayList<>();
        List<?> l = list(schema, key, path);
        for (Object o : l == null ? List.of() : l) {
            if (!(o instanceof String s)) {
                throw mustBe(key, path, "an array of strings", l);
            }
            if (!out.contains(s)) {
                out.add(s);
            }
        }
        return out;
    }

    /** A map of subschemas ({@code properties}, {@code $defs}), empty if absent. */
    static Map<String, Object> schemas(Map<String, Object> schema, String key, String path) {
        Object v = schema.get(key);
        if (v == null) {
            return Map.of();
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw mustBe(key, path, "an object", v);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, s) -> out.put(String.valueOf(k), s));
        return out;
    }

    /** A subschema: a map or a boolean. */
    static boolean isSchema(Object v) {
        return v instanceof Map || v instanceof Boolean;
    }

    static BigDecimal decimal(Number n) {
        return switch (n) {
            case BigDecimal d -> d;
            case BigInteger i -> new BigDecimal(i);
            case Integer _, Long _, Short _, Byte _ -> BigDecimal.valueOf(n.longValue());
            default -> {
                double d = n.doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    throw new GrammarException("not a JSON number: " + n);
                }
                yield new BigDecimal(n.toString());
            }
        };
    }

    static boolean isIntegral(BigDecimal d) {
        return d.signum() == 0 || d.stripTrailingZeros().scale() <= 0;
    }

    /** A JSON pointer path one step further down; {@code ~} and {@code /} escaped. */
    static String child(String path, Object step) {
        return path + "/" + String.valueOf(step).replace("~", "~0").replace("/", "~1");
    }

    static GrammarException mustBe(String key, String path, String what, Object value) {
        return new GrammarException("'" + key + "' at " + path + " must be " + what + ", not " + describe(value));
    }

    /** The value as JSON where it is JSON, for messages. */
    static String describe(Object value) {
        try {
            return JsonText.write(value);
        } catch (GrammarException e) {
            return value + " (" + value.getClass().getSimpleName() + ")";
        }
    }
}
