package com.llmserve.engine.grammar;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a conjunction of schemas ({@code allOf}, or a {@code $ref} with constraining siblings) into
 * one schema that accepts exactly the values all of them accept, for the cases where that is a
 * matter of combining keywords: types intersect, bounds tighten, {@code required} lists join, the
 * properties of objects merge (a property one side does not declare must satisfy that side's
 * {@code additionalProperties}). Where two parts constrain the same thing in ways that do not
 * combine (two patterns, two {@code anyOf}s, two tuples) the {@code allOf} is refused.
 */
final class SchemaMerger {

    /**
     * How deep merging may go. Merging two recursive schemas would unfold them forever (the
     * product of two recursive grammars needs rules of its own), so it stops here.
     */
    private static final int MAX_DEPTH = 64;

    private final SchemaRefs refs;
    private int depth;
    /** Where the outermost merge under way started, which an error names. */
    private String origin;

    SchemaMerger(SchemaRefs refs) {
        this.refs = refs;
    }

    /** The schema's {@code allOf} parts and its other keywords, as one schema. */
    Object mergeAllOf(Map<String, Object> schema, String path) {
        return mergeAllOf(schema, path, new HashSet<>());
    }

    private Object mergeAllOf(Map<String, Object> schema, String path, Set<String> following) {
        List<?> parts = SchemaKeywords.nonEmptyList(schema, "allOf", path);
        Object merged = resolved(SchemaKeywords.constraints(schema, "allOf"), path, new HashSet<>(following));
        for (int i = 0; i < parts.size(); i++) {
            String partPath = SchemaKeywords.child(SchemaKeywords.child(path, "allOf"), i);
            merged = merge(merged, resolved(parts.get(i), partPath, new HashSet<>(following)), path);
        }
        return merged;
    }

    /** Both schemas as one; either may hold an {@code allOf} or a {@code $ref}. */
    Object merge(Object a, String aPath, Object b, String bPath) {
        return merge(resolved(a, aPath, new HashSet<>()), resolved(b, bPath, new HashSet<>()), aPath);
    }

    /**
     * The schema's constraints with a top-level {@code $ref} and {@code allOf} merged in; {@code
     * following} holds the references taken on the way, which must not come round again.
     */
    private Object resolved(Object schema, String path, Set<String> following) {
        if (schema instanceof Boolean) {
            return schema;
        }
        Map<String, Object> s = SchemaKeywords.checked(schema, path);
        if (s.containsKey("allOf")) {
            return mergeAllOf(s, path, following);
        }
        if (s.containsKey("$ref")) {
            SchemaRefs.Target target = refs.resolve(s.get("$ref"), path);
            if (!following.add(target.pointer())) {
                throw new GrammarException("$ref at " + path + " refers to itself without consuming input");
            }
            Object t = resolved(target.schema(), target.pointer(), following);
            return merge(t, SchemaKeywords.constraints(s, "$ref"), path);
        }
        return SchemaKeywords.constraints(s);
    }

    private Object merge(Object a, Object b, String path) {
        if (depth == 0) {
            origin = path;
        }
        if (depth >= MAX_DEPTH) {
            throw new UnsupportedSchemaException("allOf", origin, "merging recursive schemas");
        }
        depth++;
        try {
            return mergeResolved(a, b, path);
        } finally {
            depth--;
        }
    }

    @SuppressWarnings("unchecked")
    private Object mergeResolved(Object a, Object b, String path) {
        if (Boolean.FALSE.equals(a) || Boolean.FALSE.equals(b)) {
            return false;
        }
        if (Boolean.TRUE.equals(a) || (a instanceof Map<?, ?> m && m.isEmpty())) {
            return b;
        }
        if (Boolean.TRUE.equals(b) || (b instanceof Map<?, ?> m && m.isEmpty())) {
            return a;
        }
        Map<String, Object> x = (Map<String, Object>) a;
        Map<String, Object> y = (Map<String, Object>) b;
        if (hasAny(x, "anyOf", "oneOf") && hasAny(y, "anyOf", "oneOf")) {
            throw cannot("anyOf/oneOf", path);
        }
        Map<String, Object> out = new LinkedHashMap<>(x);
        for (Map.Entry<String, Object> e : y.entrySet()) {
            String key = e.getKey();
            if (SchemaKeywords.OBJECT.contains(key) || SchemaKeywords.ARRAY.contains(key)) {
                continue; // below, with the keywords they depend on
            }
            out.put(key, x.containsKey(key) ? both(key, x.get(key), e.getValue(), path) : e.getValue());
        }
        mergeArrays(x, y, out, path);
        if (hasAny(x, "properties", "additionalProperties") || hasAny(y, "properties", "additionalProperties")) {
            mergeObjects(x, y, out, path);
        }
        if (x.containsKey("required") && y.containsKey("required")) {
            Set<String> required = new LinkedHashSet<>(SchemaKeywords.strings(x, "required", path));
            required.addAll(SchemaKeywords.strings(y, "required", path));
            out.put("required", new ArrayList<>(required));
        } else if (y.containsKey("required")) {
            out.put("required", y.get("required"));
        }
        return out;
    }

    /** One keyword that both parts hold. */
    private Object both(String key, Object a, Object b, String path) {
        return switch (key) {
            case "type" -> {
                List<String> types = new ArrayList<>();
                List<String> other = SchemaKeywords.types(Map.of("type", b), path);
                for (String t : SchemaKeywords.types(Map.of("type", a), path)) {
                    if (other.contains(t) || (t.equals("integer") && other.contains("number"))) {
                        types.add(t);
                    } else if (t.equals("number") && other.contains("integer")) {
                        types.add("integer");
                    }
                }
                if (types.isEmpty()) {
                    throw new GrammarException("the parts of the allOf at " + path + " allow no common type");
                }
                yield types;
            }
            case "minLength", "minItems" -> Math.max(int32(key, a, path), int32(key, b, path));
            case "maxLength", "maxItems" -> Math.min(int32(key, a, path), int32(key, b, path));
            case "minimum", "exclusiveMinimum" -> bound(key, a, b, path).max(bound(key, b, a, path));
            case "maximum", "exclusiveMaximum" -> bound(key, a, b, path).min(bound(key, b, a, path));
            default -> {
                if (JsonText.same(a, b)) {
                    yield a;
                }
                throw cannot(key, path);
            }
        };
    }

    private void mergeArrays(Map<String, Object> x, Map<String, Object> y, Map<String, Object> out, String path) {
        boolean xItems = hasAny(x, "items", "prefixItems", "additionalItems");
        boolean yItems = hasAny(y, "items", "prefixItems", "additionalItems");
        for (String bound : List.of("minItems", "maxItems")) {
            if (y.containsKey(bound)) {
                out.put(bound, x.containsKey(bound) ? both(bound, x.get(bound), y.get(bound), path) : y.get(bound));
            }
        }
        if (!yItems) {
            return;
        }
        if (!xItems) {
            for (String k : List.of("items", "prefixItems", "additionalItems")) {
                if (y.containsKey(k)) {
                    out.put(k, y.get(k));
                }
            }
            return;
        }
        boolean tuples = hasAny(x, "prefixItems", "additionalItems")
                || hasAny(y, "prefixItems", "additionalItems")
                || x.get("items") instanceof List
                || y.get("items") instanceof List;
        if (tuples) {
            throw cannot("prefixItems", path);
        }
        String itemsPath = SchemaKeywords.child(path, "items");
        out.put("items", merge(x.get("items"), itemsPath, y.get("items"), itemsPath));
    }

    /**
     * Properties merge by name. A property only one side declares must also satisfy the other
     * side's {@code additionalProperties} (absent: anything), and so must any further property.
     */
    private void mergeObjects(Map<String, Object> x, Map<String, Object> y, Map<String, Object> out, String path) {
        String propsPath = SchemaKeywords.child(path, "properties");
        Map<String, Object> px = SchemaKeywords.schemas(x, "properties", path);
        Map<String, Object> py = SchemaKeywords.schemas(y, "properties", path);
        Object ax = x.getOrDefault("additionalProperties", true);
        Object ay = y.getOrDefault("additionalProperties", true);
        Map<String, Object> properties = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : px.entrySet()) {
            String p = SchemaKeywords.child(propsPath, e.getKey());
            properties.put(e.getKey(), merge(e.getValue(), p, py.getOrDefault(e.getKey(), ay), p));
        }
        for (Map.Entry<String, Object> e : py.entrySet()) {
            String p = SchemaKeywords.child(propsPath, e.getKey());
            properties.putIfAbsent(e.getKey(), merge(e.getValue(), p, ax, p));
        }
        out.put("properties", properties);
        if (x.containsKey("additionalProperties") || y.containsKey("additionalProperties")) {
            String p = SchemaKeywords.child(path, "additionalProperties");
            out.put("additionalProperties", merge(ax, p, ay, p));
        } else {
            out.remove("additionalProperties");
        }
    }

    private static BigDecimal bound(String key, Object value, Object other, String path) {
        if (!(value instanceof Number n) || !(other instanceof Number)) {
            throw cannot(key, path); // draft 4's boolean exclusiveMinimum/exclusiveMaximum
        }
        return SchemaKeywords.decimal(n);
    }

    private static int int32(String key, Object value, String path) {
        return SchemaKeywords.nonNegativeInt(Map.of(key, value), key, path, 0);
    }

    private static boolean hasAny(Map<String, Object> schema, String... keys) {
        for (String k : keys) {
            if (schema.containsKey(k)) {
                return true;
            }
        }
        return false;
    }

    private static UnsupportedSchemaException cannot(String key, String path) {
        return new UnsupportedSchemaException(
                "allOf", path, "the parts both constrain '" + key + "' in ways that do not combine");
    }
}
