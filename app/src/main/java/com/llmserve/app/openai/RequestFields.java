package com.llmserve.app.openai;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Reads the fields of one JSON object of a request with OpenAI's validation messages: a wrong
 * type or an out-of-range value becomes a 400 naming the parameter by its path
 * ({@code messages[2].content}). A JSON {@code null} counts as absent, as in OpenAI's API. After
 * reading, {@link #rejectUnknown()} deals with the fields that were not read as the request's
 * {@link UnknownFieldPolicy} says: a 400, a warning, or nothing. The policy is bound for each API
 * request by {@link #withPolicy}; where none is bound (a parser called outside a request) unknown
 * fields are rejected.
 */
public final class RequestFields {

    private static final Logger LOG = LoggerFactory.getLogger(RequestFields.class);

    /** The policy of the request being read, and its endpoint for the log. */
    private record Scope(UnknownFieldPolicy policy, String endpoint) {}

    private static final ScopedValue<Scope> SCOPE = ScopedValue.newInstance();
    private static final Scope STRICT = new Scope(UnknownFieldPolicy.REJECT, "");

    /** Unknown fields already logged at WARN, as endpoint and field path; bounded, as clients choose the names. */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private static final int MAX_WARNED = 1000;
    private static final AtomicBoolean WARNED_FULL = new AtomicBoolean();

    private final JsonNode node;
    private final String prefix;
    private final Set<String> read = new HashSet<>();

    private RequestFields(JsonNode node, String prefix) {
        this.node = node;
        this.prefix = prefix;
    }

    /** The fields of a request body, which must be a JSON object. */
    public static RequestFields of(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new InvalidRequestException(
                    null,
                    "The request body must be a JSON object, but got " + (body == null ? "nothing" : describe(body))
                            + ".");
        }
        return new RequestFields(body, "");
    }

    /** The fields of a nested object, named by {@code path} in error messages. */
    public static RequestFields nested(JsonNode value, String path) {
        if (!value.isObject()) {
            throw typeError(path, "an object", value);
        }
        return new RequestFields(value, path + ".");
    }

    /** The full name of a field, for {@code param}. */
    public String path(String name) {
        return prefix + name;
    }

    /** Marks fields as known and ignored: they do not change the answer here (such as {@code user}). */
    public void ignore(String... names) {
        read.addAll(List.of(names));
    }

    /** Whether the field is present and not null. */
    public boolean has(String name) {
        JsonNode v = node.get(name);
        return v != null && !v.isNull();
    }

    /** The raw value, or null when absent or null. */
    public JsonNode raw(String name) {
        read.add(name);
        JsonNode v = node.get(name);
        return v == null || v.isNull() ? null : v;
    }

    public String requiredString(String name) {
        return optString(name).orElseThrow(() -> missing(name));
    }

    public Optional<String> optString(String name) {
        JsonNode v = raw(name);
        if (v == null) {
            return Optional.empty();
        }
        if (!v.isString()) {
            throw typeError(path(name), "a string", v);
        }
        return Optional.of(v.stringValue());
    }

    public Optional<Boolean> optBoolean(String name) {
        JsonNode v = raw(name);
        if (v == null) {
            return Optional.empty();
        }
        if (!v.isBoolean()) {
            throw typeError(path(name), "a boolean", v);
        }
        return Optional.of(v.booleanValue());
    }

    /** An integer in {@code [min, max]}. */
    public OptionalInt optInt(String name, int min, int max) {
        JsonNode v = raw(name);
        if (v == null) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(intValue(v, path(name), min, max));
    }

    /** Any integer that fits 64 bits (a seed). */
    public OptionalLong optLong(String name) {
        JsonNode v = raw(name);
        if (v == null) {
            return OptionalLong.empty();
        }
        if (!v.isIntegralNumber()) {
            throw typeError(path(name), "an integer", v);
        }
        if (!v.canConvertToLong()) {
            throw new InvalidRequestException(
                    path(name), "Invalid '" + path(name) + "': " + v + " does not fit a 64-bit integer.");
        }
        return OptionalLong.of(v.longValue());
    }

    /** A number in {@code [min, max]}. */
    public OptionalDouble optNumber(String name, double min, double max) {
        JsonNode v = raw(name);
        if (v == null) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(numberValue(v, path(name), min, max));
    }

    /**
     * Runs {@code op} (the handling of one request to {@code endpoint}) with {@code policy} for the
     * fields that its parsers do not know.
     */
    public static <T, X extends Throwable> T withPolicy(
            UnknownFieldPolicy policy, String endpoint, ScopedValue.CallableOp<? extends T, X> op) throws X {
        return ScopedValue.where(SCOPE, new Scope(policy, endpoint)).call(op);
    }

    /**
     * Deals with every field that was not read as the request's policy says: under {@link
     * UnknownFieldPolicy#REJECT} a 400 naming the first one, under {@link UnknownFieldPolicy#WARN}
     * a warning the first time a field of that name comes to the endpoint, under {@link
     * UnknownFieldPolicy#IGNORE} nothing. Fields read with the methods above have been checked
     * already, whatever the policy.
     */
    public void rejectUnknown() {
        List<String> unknown = new ArrayList<>();
        for (String name : node.propertyNames()) {
            if (!read.contains(name)) {
                unknown.add(name);
            }
        }
        if (unknown.isEmpty()) {
            return;
        }
        Scope scope = SCOPE.orElse(STRICT);
        switch (scope.policy()) {
            case REJECT -> {
                String name = unknown.getFirst();
                throw new InvalidRequestException(
                        path(name), "Unrecognized request argument supplied: " + path(name), "unknown_parameter");
            }
            case WARN -> unknown.forEach(name -> warnOnce(scope.endpoint(), printable(path(name))));
            case IGNORE -> {
                if (LOG.isDebugEnabled()) {
                    unknown.forEach(name ->
                            LOG.debug("{}: ignored unknown field '{}'", scope.endpoint(), printable(path(name))));
                }
            }
        }
    }

    private static void warnOnce(String endpoint, String path) {
        // one warning per field, not per array element: messages[3].x is messages[].x
        String key = endpoint + " " + path.replaceAll("\\[\\d+]", "[]");
        if (WARNED.size() < MAX_WARNED && WARNED.add(key)) {
            LOG.warn(
                    "{}: ignored the unknown request field '{}' (llmserve.api.unknown-fields=warn; logged once per field)",
                    endpoint,
                    path);
        } else if (WARNED.size() >= MAX_WARNED && WARNED_FULL.compareAndSet(false, true)) {
            LOG.warn("{} unknown request fields have been logged; further ones are logged at DEBUG only", MAX_WARNED);
        } else {
            LOG.debug("{}: ignored unknown field '{}'", endpoint, path);
        }
    }

    /** A field name for the log: control characters escaped, at most 100 characters (clients choose it). */
    private static String printable(String name) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.min(name.length(), 100); i++) {
            char c = name.charAt(i);
            out.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return name.length() > 100 ? out + "..." : out.toString();
    }

    /** A 400 for this field. */
    public InvalidRequestException invalid(String name, String message) {
        return new InvalidRequestException(path(name), message);
    }

    /** A 400 for this field with a machine-readable code. */
    public InvalidRequestException invalid(String name, String message, String code) {
        return new InvalidRequestException(path(name), message, code);
    }

    public InvalidRequestException missing(String name) {
        return new InvalidRequestException(
                path(name), "Missing required parameter: '" + path(name) + "'.", "missing_required_parameter");
    }

    /** An integer element at {@code path} in {@code [min, max]}. */
    public static int intValue(JsonNode v, String path, int min, int max) {
        if (!v.isIntegralNumber()) {
            throw typeError(path, "an integer", v);
        }
        if (!v.canConvertToInt() || v.intValue() < min || v.intValue() > max) {
            boolean below = v.canConvertToInt()
                    ? v.intValue() < min
                    : v.bigIntegerValue().signum() < 0;
            throw new InvalidRequestException(
                    path,
                    below
                            ? "Invalid '" + path + "': integer below minimum value. Expected a value >= " + min
                                    + ", but got " + v + " instead."
                            : "Invalid '" + path + "': integer above maximum value. Expected a value <= " + max
                                    + ", but got " + v + " instead.",
                    below ? "integer_below_min_value" : "integer_above_max_value");
        }
        return v.intValue();
    }

    /** A number element at {@code path} in {@code [min, max]}. */
    public static double numberValue(JsonNode v, String path, double min, double max) {
        if (!v.isNumber()) {
            throw typeError(path, "a number", v);
        }
        double d = v.doubleValue();
        if (!Double.isFinite(d) || d < min) {
            throw new InvalidRequestException(
                    path,
                    "Invalid '" + path + "': number below minimum value. Expected a value >= " + format(min)
                            + ", but got " + v + " instead.",
                    "decimal_below_min_value");
        }
        if (d > max) {
            throw new InvalidRequestException(
                    path,
                    "Invalid '" + path + "': number above maximum value. Expected a value <= " + format(max)
                            + ", but got " + v + " instead.",
                    "decimal_above_max_value");
        }
        return d;
    }

    /** OpenAI's wording for a value of the wrong JSON type. */
    public static InvalidRequestException typeError(String path, String expected, JsonNode got) {
        return new InvalidRequestException(
                path,
                "Invalid type for '" + path + "': expected " + expected + ", but got " + describe(got) + " instead.",
                "invalid_type");
    }

    private static String describe(JsonNode v) {
        if (v.isString()) {
            return "a string";
        } else if (v.isIntegralNumber()) {
            return "an integer";
        } else if (v.isNumber()) {
            return "a decimal";
        } else if (v.isBoolean()) {
            return "a boolean";
        } else if (v.isArray()) {
            return "an array";
        } else if (v.isObject()) {
            return "an object";
        }
        return "null";
    }

    private static String format(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }
}
