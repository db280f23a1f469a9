package com.llmserve.engine.grammar;

import static com.llmserve.engine.grammar.Expr.alt;
import static com.llmserve.engine.grammar.Expr.empty;
import static com.llmserve.engine.grammar.Expr.literal;
import static com.llmserve.engine.grammar.Expr.optional;
import static com.llmserve.engine.grammar.Expr.ref;
import static com.llmserve.engine.grammar.Expr.repeat;
import static com.llmserve.engine.grammar.Expr.seq;
import static com.llmserve.engine.grammar.Expr.star;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Walks a JSON Schema and builds the rules of a grammar for the JSON values it accepts. Every value
 * expression ends with whitespace (see {@link JsonRules}). Subschemas become inline expressions;
 * each {@code $ref} target becomes one rule, so recursive schemas become recursive rules.
 *
 * <p>Where JSON Schema allows more than is useful to generate, the grammar generates a subset, all
 * of it valid: objects without {@code additionalProperties} get no keys beyond the declared ones,
 * tuples without {@code items} no items beyond the prefix, numbers with bounds no exponent and
 * bounds rounded inward to integers. A schema without {@code type} is taken to have the types its
 * keywords are about ({@code properties}: object, {@code minLength}: string, ...), any type if
 * none. {@code oneOf} is compiled as {@code anyOf}: the grammar does not check that exactly one
 * alternative matches.
 */
final class SchemaCompiler {

    /** Deeper nesting is taken for a cycle of references through keywords that consume nothing. */
    private static final int MAX_DEPTH = 256;

    private static final BigInteger DEFAULT_LIMIT =
            BigInteger.TEN.pow(JsonRules.MAX_INTEGER_DIGITS).subtract(BigInteger.ONE);

    private final String prefix;
    private final Map<String, Expr> rules = new LinkedHashMap<>();
    private final JsonRules json;
    private final SchemaRefs refs;
    private final SchemaMerger merger;
    /** Per resolved {@code $ref} pointer, its rule. */
    private final Map<String, String> refRules = new HashMap<>();

    private int depth;

    private SchemaCompiler(Object root, String prefix) {
        this.prefix = prefix;
        this.json = new JsonRules(prefix, rules);
        this.refs = new SchemaRefs(root);
        this.merger = new SchemaMerger(refs);
    }

    static JsonSchemaGrammar.Rules compile(Object schema, String prefix) {
        SchemaCompiler c = new SchemaCompiler(schema, prefix);
        String root = prefix + "root";
        c.refRules.put("#", root);
        c.rules.put(root, empty()); // the root rule first; "$ref": "#" may refer to it
        c.rules.put(root, c.value(schema, "#"));
        return new JsonSchemaGrammar.Rules(c.rules, root);
    }

    /** The grammar of the values {@code schema} accepts, trailing whitespace included. */
    private Expr value(Object schema, String path) {
        if (depth >= MAX_DEPTH) {
            throw new GrammarException("the schema at " + path + " nests more than " + MAX_DEPTH + " levels deep");
        }
        depth++;
        try {
            return valueOf(schema, path);
        } finally {
            depth--;
        }
    }

    private Expr valueOf(Object schema, String path) {
        if (Boolean.TRUE.equals(schema)) {
            return json.anyValue();
        }
        if (Boolean.FALSE.equals(schema)) {
            throw new GrammarException("the schema at " + path + " is false: no value satisfies it");
        }
        Map<String, Object> s = SchemaKeywords.checked(schema, path);
        if (s.containsKey("allOf")) {
            return value(merger.mergeAllOf(s, path), path);
        }
        if (s.containsKey("$ref")) {
            Map<String, Object> siblings = SchemaKeywords.constraints(s, "$ref");
            return siblings.isEmpty()
                    ? refRule(s.get("$ref"), path)
                    : value(merger.merge(Map.of("$ref", s.get("$ref")), path, siblings, path), path);
        }
        if (s.containsKey("anyOf") || s.containsKey("oneOf")) {
            return alternatives(s, path);
        }
        if (s.containsKey("const") || s.containsKey("enum")) {
            return constants(s, path);
        }
        List<String> types = SchemaKeywords.types(s, path);
        if (types == null) {
            types = impliedTypes(s);
            if (types.isEmpty()) {
                return json.anyValue();
            }
        }
        List<Expr> options = new ArrayList<>();
        for (String type : types) {
            options.add(
                    switch (type) {
                        case "null" -> json.nullValue();
                        case "boolean" -> json.bool();
                        case "string" -> string(s, path);
                        case "integer" -> integer(s, path);
                        case "number" -> number(s, path);
                        case "object" -> object(s, path);
                        default -> array(s, path);
                    });
        }
        return alt(options);
    }

    private Expr refRule(Object ref, String path) {
        SchemaRefs.Target target = refs.resolve(ref, path);
        String name = refRules.get(target.pointer());
        if (name == null) {
            String base = prefix + "ref-"
                    + target.pointer()
                            .substring(1)
                            .replaceAll("[^A-Za-z0-9]+", "-")
                            .replaceAll("^-|-$", "");
            name = base;
            for (int i = 2; rules.containsKey(name); i++) {
                name = base + "-" + i;
            }
            refRules.put(target.pointer(), name);
            rules.put(name, empty()); // reserved while the target refers back to it
            rules.put(name, value(target.schema(), target.pointer()));
        }
        return ref(name);
    }

    /** {@code anyOf}/{@code oneOf}: the keywords beside it apply to every alternative. */
    private Expr alternatives(Map<String, Object> s, String path) {
        if (s.containsKey("anyOf") && s.containsKey("oneOf")) {
            throw new UnsupportedSchemaException("oneOf", path, "together with 'anyOf'");
        }
        String keyword = s.containsKey("anyOf") ? "anyOf" : "oneOf";
        List<?> branches = SchemaKeywords.nonEmptyList(s, keyword, path);
        Map<String, Object> siblings = SchemaKeywords.constraints(s, keyword);
        List<Expr> options = new ArrayList<>();
        for (int i = 0; i < branches.size(); i++) {
            Object branch = branches.get(i);
            String branchPath = SchemaKeywords.child(SchemaKeywords.child(path, keyword), i);
            if (!siblings.isEmpty()) {
                branch = merger.merge(siblings, path, branch, branchPath);
            }
            if (!Boolean.FALSE.equals(branch)) {
                options.add(value(branch, branchPath));
            }
        }
        if (options.isEmpty()) {
            throw new GrammarException("no alternative of the " + keyword + " at " + path + " can be satisfied");
        }
        return alt(options);
    }

    /** {@code const}/{@code enum}: the values, written as JSON; only {@code type} may narrow them. */
    private Expr constants(Map<String, Object> s, String path) {
        String keyword = s.containsKey("const") ? "const" : "enum";
        SchemaKeywords.constraints(s, "const", "enum", "type").keySet().stream()
                .findFirst()
                .ifPresent(other -> {
                    throw new UnsupportedSchemaException(other, path, "together with '" + keyword + "'");
                });
        List<Object> values = new ArrayList<>();
        if (s.containsKey("const")) {
            values.add(s.get("const"));
        } else {
            values.addAll(SchemaKeywords.nonEmptyList(s, "enum", path));
        }
        if (s.containsKey("const") && s.containsKey("enum")) {
            List<?> allowed = SchemaKeywords.nonEmptyList(s, "enum", path);
            values.removeIf(v -> allowed.stream().noneMatch(a -> JsonText.same(a, v)));
        }
        List<String> types = SchemaKeywords.types(s, path);
        if (types != null) {
            values.removeIf(v -> types.stream().noneMatch(t -> SchemaKeywords.isOfType(v, t)));
        }
        Set<String> texts = new LinkedHashSet<>();
        values.forEach(v -> texts.add(JsonText.write(v)));
        if (texts.isEmpty()) {
            throw new GrammarException("no value of '" + keyword + "' at " + path + " satisfies the schema");
        }
        return alt(texts.stream().map(json::token).toList());
    }

    private static List<String> impliedTypes(Map<String, Object> s) {
        List<String> types = new ArrayList<>();
        if (s.keySet().stream().anyMatch(SchemaKeywords.OBJECT::contains)) {
            types.add("object");
        }
        if (s.keySet().stream().anyMatch(SchemaKeywords.ARRAY::contains)) {
            types.add("array");
        }
        if (s.keySet().stream().anyMatch(SchemaKeywords.STRING::contains)) {
            types.add("string");
        }
        if (s.keySet().stream().anyMatch(SchemaKeywords.NUMBER::contains)) {
            types.add("number");
        }
        return types;
    }

    private Expr string(Map<String, Object> s, String path) {
        int min = SchemaKeywords.nonNegativeInt(s, "minLength", path, 0);
        int max = SchemaKeywords.nonNegativeInt(s, "maxLength", path, -1);
        String format = SchemaKeywords.string(s, "format", path);
        String pattern = SchemaKeywords.string(s, "pattern", path);
        boolean lengths = s.containsKey("minLength") || s.containsKey("maxLength");
        if (format != null) {
            if (lengths || pattern != null) {
                throw new UnsupportedSchemaException(
                        pattern != null ? "pattern" : lengthKeyword(s), path, "together with 'format'");
            }
            Expr f = StringFormats.of(format);
            if (f == null) {
                throw new UnsupportedSchemaException(
                        "format", path, "format '" + format + "' is not one of " + StringFormats.NAMES);
            }
            return seq(literal("\""), f, literal("\""), json.space());
        }
        if (pattern != null) {
            if (lengths) {
                throw new UnsupportedSchemaException(lengthKeyword(s), path, "together with 'pattern'");
            }
            Expr inside = SchemaRegex.compile(pattern, path, json.stringChar(), json.repetition());
            return seq(literal("\""), inside, literal("\""), json.space());
        }
        if (max >= 0 && min > max) {
            throw new GrammarException("'minLength' at " + path + " is above 'maxLength'");
        }
        return lengths ? json.string(min, max) : json.string();
    }

    private static String lengthKeyword(Map<String, Object> s) {
        return s.containsKey("minLength") ? "minLength" : "maxLength";
    }

    private Expr integer(Map<String, Object> s, String path) {
        BigInteger[] bounds = bounds(s, path);
        if (bounds == null) {
            return json.integer();
        }
        Expr digits = NumberRanges.integers(bounds[0], bounds[1]);
        if (digits == null) {
            throw new GrammarException("no integer lies within the bounds at " + path);
        }
        return seq(digits, json.space());
    }

    private Expr number(Map<String, Object> s, String path) {
        BigInteger[] bounds = bounds(s, path);
        if (bounds == null) {
            return json.number();
        }
        Expr digits = NumberRanges.decimals(bounds[0], bounds[1]);
        if (digits == null) {
            throw new UnsupportedSchemaException(
                    s.containsKey("minimum") ? "minimum" : "exclusiveMinimum",
                    path,
                    "numbers are bounded by the integers inside the bounds, and there are none");
        }
        return seq(digits, json.space());
    }

    /**
     * The integer bounds {lo, hi} that {@code minimum}, {@code maximum} and the exclusive ones
     * (numbers, or draft 4's booleans) allow, rounded inward; null if there are none. A missing side
     * is the largest 16-digit number, or as many digits as the other side has.
     */
    private static BigInteger[] bounds(Map<String, Object> s, String path) {
        BigInteger lo = bound(s, path, false);
        BigInteger hi = bound(s, path, true);
        if (lo == null && hi == null) {
            return null;
        }
        if (lo == null) {
            lo = DEFAULT_LIMIT.max(allNines(hi)).negate();
        }
        if (hi == null) {
            hi = DEFAULT_LIMIT.max(allNines(lo));
        }
        return new BigInteger[] {lo, hi};
    }

    /** The lower (or upper) integer bound, or null if the schema sets none. */
    private static BigInteger bound(Map<String, Object> s, String path, boolean upper) {
        String inclusive = upper ? "maximum" : "minimum";
        String exclusive = upper ? "exclusiveMaximum" : "exclusiveMinimum";
        BigDecimal plain = SchemaKeywords.number(s, inclusive, path);
        Object ex = s.get(exclusive);
        if (ex instanceof Boolean flag) { // draft 4: the flag makes the plain bound exclusive
            if (flag && plain == null) {
                throw new GrammarException("'" + exclusive + "' at " + path + " is true without '" + inclusive + "'");
            }
            return plain == null ? null : flag ? strictlyInside(plain, upper) : inside(plain, upper);
        }
        BigInteger a = plain == null ? null : inside(plain, upper);
        BigInteger b = ex == null ? null : strictlyInside(SchemaKeywords.number(s, exclusive, path), upper);
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        return upper ? a.min(b) : a.max(b);
    }

    /** The nearest integer at or above (for an upper bound: at or below) {@code x}. */
    private static BigInteger inside(BigDecimal x, boolean upper) {
        return x.setScale(0, upper ? RoundingMode.FLOOR : RoundingMode.CEILING).toBigInteger();
    }

    /** The nearest integer strictly above (for an upper bound: strictly below) {@code x}. */
    private static BigInteger strictlyInside(BigDecimal x, boolean upper) {
        return upper
                ? x.setScale(0, RoundingMode.CEILING).toBigInteger().subtract(BigInteger.ONE)
                : x.setScale(0, RoundingMode.FLOOR).toBigInteger().add(BigInteger.ONE);
    }

    private static BigInteger allNines(BigInteger x) {
        return BigInteger.TEN.pow(x.abs().toString().length()).subtract(BigInteger.ONE);
    }

    /**
     * An object: the declared properties in their order, the required ones always, the others
     * perhaps; then, if {@code additionalProperties} is true or a schema, more keys. With neither
     * {@code properties}, {@code required} nor {@code additionalProperties}, any object.
     */
    private Expr object(Map<String, Object> s, String path) {
        if (!s.containsKey("properties") && !s.containsKey("required") && !s.containsKey("additionalProperties")) {
            return json.anyObject();
        }
        Map<String, Object> properties = SchemaKeywords.schemas(s, "properties", path);
        List<String> required = SchemaKeywords.strings(s, "required", path);
        Object additional = s.get("additionalProperties");
        if (additional != null && !SchemaKeywords.isSchema(additional)) {
            throw SchemaKeywords.mustBe("additionalProperties", path, "a schema", additional);
        }
        String additionalPath = SchemaKeywords.child(path, "additionalProperties");
        List<Member> members = new ArrayList<>();
        for (Map.Entry<String, Object> p : properties.entrySet()) {
            String name = p.getKey();
            boolean isRequired = required.contains(name);
            if (Boolean.FALSE.equals(p.getValue())) {
                if (isRequired) {
                    throw new GrammarException(
                            "property '" + name + "' at " + path + " is required but its schema is false");
                }
                continue;
            }
            String propertyPath = SchemaKeywords.child(SchemaKeywords.child(path, "properties"), name);
            members.add(new Member(name, value(p.getValue(), propertyPath), isRequired));
        }
        for (String name : required) {
            if (!properties.containsKey(name)) {
                if (Boolean.FALSE.equals(additional)) {
                    throw new GrammarException("property '" + name + "' at " + path
                            + " is required but not declared, and 'additionalProperties' is false");
                }
                Object schema = additional == null ? true : additional;
                members.add(new Member(name, value(schema, additionalPath), true));
            }
        }
        Expr extra = null;
        if (additional != null && !Boolean.FALSE.equals(additional)) {
            Set<String> known = new LinkedHashSet<>(properties.keySet());
            known.addAll(required);
            extra = seq(OtherKeys.except(known), json.space(), json.token(":"), value(additional, additionalPath));
        }
        return seq(json.token("{"), members(members, extra), json.token("}"));
    }

    private record Member(String name, Expr value, boolean required) {}

    /**
     * The members, each but the first after a comma. Built from the end: {@code first} is what may
     * follow when no member has come yet (an optional member, or skip it and go on); {@code rest}
     * what follows a member, where every later member takes a comma.
     */
    private Expr members(List<Member> members, Expr extra) {
        int n = members.size();
        Expr comma = json.token(",");
        Expr first = extra == null ? empty() : optional(seq(extra, star(seq(comma, extra))));
        List<Expr> rest = new ArrayList<>();
        if (extra != null) {
            rest.add(star(seq(comma, extra)));
        }
        for (int i = n - 1; i >= 0; i--) {
            Member m = members.get(i);
            Expr kv = seq(json.token(JsonText.quote(m.name())), json.token(":"), m.value());
            Expr thisFirst = seq(kv, seq(new ArrayList<>(rest.reversed())));
            first = m.required() ? thisFirst : alt(thisFirst, first);
            rest.add(m.required() ? seq(comma, kv) : optional(seq(comma, kv)));
        }
        return first;
    }

    /**
     * An array: the {@code prefixItems} (or draft 7's list {@code items}) in order, then items of
     * the {@code items} (or {@code additionalItems}) schema, {@code minItems} to {@code maxItems}
     * of them in all. Without {@code items} a tuple ends after its prefix; a plain array holds any
     * values.
     */
    private Expr array(Map<String, Object> s, String path) {
        boolean draft7Tuple = s.get("items") instanceof List;
        String prefixKey = draft7Tuple ? "items" : "prefixItems";
        String restKey = draft7Tuple ? "additionalItems" : "items";
        List<?> prefixSchemas = SchemaKeywords.list(s, prefixKey, path);
        Object restSchema = s.get(restKey);
        if (restSchema != null && !SchemaKeywords.isSchema(restSchema)) {
            throw SchemaKeywords.mustBe(restKey, path, "a schema", restSchema);
        }
        List<Expr> prefixItems = new ArrayList<>();
        for (int i = 0; prefixSchemas != null && i < prefixSchemas.size(); i++) {
            if (Boolean.FALSE.equals(prefixSchemas.get(i))) {
                break; // no array reaches this position
            }
            prefixItems.add(
                    value(prefixSchemas.get(i), SchemaKeywords.child(SchemaKeywords.child(path, prefixKey), i)));
        }
        Expr rest = null;
        if (restSchema == null ? prefixSchemas == null : !Boolean.FALSE.equals(restSchema)) {
            rest = value(restSchema == null ? true : restSchema, SchemaKeywords.child(path, restKey));
        }
        int min = SchemaKeywords.nonNegativeInt(s, "minItems", path, 0);
        int max = SchemaKeywords.nonNegativeInt(s, "maxItems", path, -1);
        if (rest == null) {
            max = max < 0 ? prefixItems.size() : Math.min(max, prefixItems.size());
        }
        if (max >= 0 && min > max) {
            throw new GrammarException("no array satisfies the item counts and item schemas at " + path);
        }
        Expr items = max == 0
                ? empty()
                : new Items(prefixItems, rest, json.token(","), json.repetition()).counted(Math.max(min, 1), max);
        return seq(json.token("["), min == 0 && max != 0 ? optional(items) : items, json.token("]"));
    }

    /** The items of an array: position {@code i} takes the prefix schema {@code i}, or the rest. */
    private record Items(List<Expr> prefix, Expr rest, Expr comma, Repetition repetition) {

        /** {@code lo >= 1} to {@code hi} items ({@code hi < 0}: no limit). */
        Expr counted(int lo, int hi) {
            List<Expr> parts = new ArrayList<>();
            for (int i = 0; i < lo && i < prefix.size(); i++) {
                parts.add(item(i));
            }
            if (lo > prefix.size()) {
                int from = prefix.size();
                if (from == 0) {
                    parts.add(rest);
                    from = 1;
                }
                parts.add(repeat(seq(comma, rest), lo - from, lo - from));
            }
            parts.add(more(lo, hi));
            return seq(parts);
        }

        /** Perhaps more items after {@code done} of them. */
        private Expr more(int done, int hi) {
            if (done == hi) {
                return empty();
            }
            if (done >= prefix.size()) {
                return repetition.of(seq(comma, rest), 0, hi < 0 ? -1 : hi - done);
            }
            return optional(seq(item(done), more(done + 1, hi)));
        }

        private Expr item(int i) {
            Expr schema = i < prefix.size() ? prefix.get(i) : rest;
            return i == 0 ? schema : seq(comma, schema);
        }
    }
}
