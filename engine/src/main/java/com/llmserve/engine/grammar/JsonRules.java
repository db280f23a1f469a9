package com.llmserve.engine.grammar;

import static com.llmserve.engine.grammar.Expr.alt;
import static com.llmserve.engine.grammar.Expr.literal;
import static com.llmserve.engine.grammar.Expr.oneOf;
import static com.llmserve.engine.grammar.Expr.optional;
import static com.llmserve.engine.grammar.Expr.range;
import static com.llmserve.engine.grammar.Expr.ref;
import static com.llmserve.engine.grammar.Expr.repeat;
import static com.llmserve.engine.grammar.Expr.seq;
import static com.llmserve.engine.grammar.Expr.star;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The rules every JSON grammar shares (whitespace, strings, numbers, any value), defined in the
 * rule map on first use under the map's prefix, so a schema's grammar carries only what it uses.
 *
 * <p>Every value rule ends with {@link #space()}, as in llama.cpp's json-schema-to-grammar: the
 * whitespace between tokens is the whitespace after a value or a punctuation mark, and it is
 * bounded (a space, or a newline and up to 20 blanks) so that a model cannot emit whitespace
 * forever. Digit counts are bounded for the same reason: an integer part has at most 16 digits, a
 * fraction at most 16, an exponent at most 3.
 */
final class JsonRules {

    static final int MAX_INTEGER_DIGITS = 16;
    private static final int MAX_FRACTION_DIGITS = 16;
    private static final int MAX_EXPONENT_DIGITS = 3;
    private static final int MAX_INDENT = 20;

    /** What JSON forbids raw in a string, and lone surrogates, which no text holds. */
    private static final int[] NOT_RAW = CodePoints.of(0, 0x1f, '"', '"', '\\', '\\', 0xd800, 0xdfff);

    private final String prefix;
    private final Map<String, Expr> rules;
    private final Repetition repetition;

    JsonRules(String prefix, Map<String, Expr> rules) {
        this.prefix = prefix;
        this.rules = rules;
        this.repetition = new Repetition(rules, prefix + "rep-");
    }

    /** Bounded repetition whose helper rules go with these rules. */
    Repetition repetition() {
        return repetition;
    }

    /** Optional whitespace: nothing, a space, or a newline and some indentation. */
    Expr space() {
        return rule(
                "space", () -> alt(literal(""), literal(" "), seq(literal("\n"), repeat(oneOf(" \t"), 0, MAX_INDENT))));
    }

    /** Fixed text followed by whitespace: punctuation, keys, constants. */
    Expr token(String text) {
        return seq(literal(text), space());
    }

    /**
     * One character of a JSON string as written: a raw character, or an escape. {@code \}{@code u}
     * escapes of surrogates are left out, so one unit of this rule is always one code point of the
     * decoded string and {@code minLength}/{@code maxLength} count exactly.
     */
    Expr stringChar() {
        return rule("char", () -> {
            Expr hex = range('0', '9', 'a', 'f', 'A', 'F');
            Expr notSurrogate = alt(
                    seq(range('0', '9', 'a', 'c', 'A', 'C', 'e', 'f', 'E', 'F'), hex, hex, hex),
                    seq(oneOf("dD"), range('0', '7'), hex, hex));
            return alt(
                    new Expr.CharClass(NOT_RAW, true),
                    seq(literal("\\"), alt(oneOf("\"\\/bfnrt"), seq(literal("u"), notSurrogate))));
        });
    }

    /** Any string value. */
    Expr string() {
        return rule("string", () -> seq(literal("\""), star(stringChar()), literal("\""), space()));
    }

    /** A string value whose decoded length lies in {@code [min, max]}; {@code max < 0} for no limit. */
    Expr string(int min, int max) {
        return seq(literal("\""), repetition.of(stringChar(), min, max), literal("\""), space());
    }

    /** Decimal digits of an integer without sign: {@code 0}, or up to 16 digits without a leading zero. */
    static Expr integralDigits() {
        return alt(literal("0"), seq(range('1', '9'), repeat(range('0', '9'), 0, MAX_INTEGER_DIGITS - 1)));
    }

    /** The digits after a decimal point. */
    static Expr fractionDigits() {
        return repeat(range('0', '9'), 1, MAX_FRACTION_DIGITS);
    }

    Expr integer() {
        return rule("integer", () -> seq(optional(literal("-")), integralDigits(), space()));
    }

    Expr number() {
        return rule(
                "number",
                () -> seq(
                        optional(literal("-")),
                        integralDigits(),
                        optional(seq(literal("."), fractionDigits())),
                        optional(seq(
                                oneOf("eE"), optional(oneOf("-+")), repeat(range('0', '9'), 1, MAX_EXPONENT_DIGITS))),
                        space()));
    }

    Expr bool() {
        return rule("boolean", () -> seq(alt(literal("true"), literal("false")), space()));
    }

    Expr nullValue() {
        return rule("null", () -> token("null"));
    }

    /** Any JSON value, objects and arrays of any depth included. */
    Expr anyValue() {
        return rule("value", () -> alt(anyObject(), anyArray(), string(), number(), bool(), nullValue()));
    }

    Expr anyObject() {
        return rule("object", () -> {
            Expr member = seq(string(), token(":"), anyValue());
            return seq(token("{"), optional(seq(member, star(seq(token(","), member)))), token("}"));
        });
    }

    Expr anyArray() {
        return rule(
                "array",
                () -> seq(token("["), optional(seq(anyValue(), star(seq(token(","), anyValue())))), token("]")));
    }

    /**
     * One character of {@code set} as the grammar spells it inside a string (see {@link
     * JsonText#escape}), or null when the set holds no character a string can carry.
     */
    static Expr encodedCharIn(int[] set) {
        List<Expr> options = new ArrayList<>();
        int[] raw = CodePoints.minus(set, NOT_RAW);
        if (!CodePoints.isEmpty(raw)) {
            options.add(new Expr.CharClass(raw, false));
        }
        int[] escaped = CodePoints.intersect(set, CodePoints.of(0, 0x1f, '"', '"', '\\', '\\'));
        for (int i = 0; i < escaped.length; i += 2) {
            for (int cp = escaped[i]; cp <= escaped[i + 1]; cp++) {
                options.add(literal(JsonText.escape(cp)));
            }
        }
        return options.isEmpty() ? null : alt(options);
    }

    /** Defines {@code prefix + name} on first use; the definition may refer to the rule itself. */
    private Expr rule(String name, Supplier<Expr> definition) {
        String full = prefix + name;
        if (!rules.containsKey(full)) {
            rules.put(full, literal("")); // reserves the name while the definition refers back
            rules.put(full, definition.get());
        }
        return ref(full);
    }
}
