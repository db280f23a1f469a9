package com.llmserve.engine.grammar;

import static com.llmserve.engine.grammar.Expr.alt;
import static com.llmserve.engine.grammar.Expr.empty;
import static com.llmserve.engine.grammar.Expr.seq;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses llama.cpp's GBNF, the grammar language of its server's {@code grammar} parameter: rules
 * {@code name ::= ...} with alternatives {@code |}, groups, string literals, character classes,
 * {@code .} (any character), the repetitions {@code * + ? {m} {m,} {m,n}} and {@code #} comments.
 * The start rule is {@code root}.
 *
 * <p>llama.cpp lets a rule go on to the next line only inside parentheses or after {@code |}; here
 * a rule goes on until the next {@code name ::=}, which reads every grammar llama.cpp reads the same
 * way. A rule defined twice is an error (llama.cpp keeps the last). Token references ({@code <...>})
 * are not supported.
 */
public final class GbnfParser {

    /** Deeper groups would overflow the stack of the parser or of {@link Grammar#of}. */
    private static final int MAX_NESTING = 200;

    private final int[] src;
    private int pos;
    private int nesting;
    private final Map<String, Expr> rules = new LinkedHashMap<>();
    /** Where each rule name is first referred to, for the error if it is never defined. */
    private final Map<String, Integer> firstUse = new LinkedHashMap<>();
    /** Its rule names hold a character GBNF names cannot, so they meet no rule of the text. */
    private final Repetition repetition = new Repetition(rules, "*rep");

    private GbnfParser(String text) {
        this.src = text.codePoints().toArray();
    }

    /**
     * The grammar of a GBNF text.
     *
     * @throws GrammarException for a syntax error or an undefined rule (with line and column), a
     *     missing {@code root}, or left recursion
     */
    public static Grammar parse(String gbnf) {
        return new GbnfParser(gbnf).grammar();
    }

    private Grammar grammar() {
        skipSpace();
        while (pos < src.length) {
            rule();
            skipSpace();
        }
        for (Map.Entry<String, Integer> use : firstUse.entrySet()) {
            if (!rules.containsKey(use.getKey())) {
                throw error(use.getValue(), "rule '" + use.getKey() + "' is not defined");
            }
        }
        if (!rules.containsKey("root")) {
            throw new GrammarException("the grammar has no 'root' rule");
        }
        return Grammar.of(rules, "root");
    }

    private void rule() {
        int start = pos;
        String name = name();
        skipSpace();
        if (!lookingAt("::=")) {
            throw error(pos, "expected '::=' after the rule name '" + name + "'");
        }
        pos += 3;
        Expr body = alternatives(false);
        if (rules.putIfAbsent(name, body) != null) {
            throw error(start, "rule '" + name + "' is defined twice");
        }
    }

    private Expr alternatives(boolean nested) {
        List<Expr> options = new ArrayList<>();
        options.add(sequence(nested));
        while (pos < src.length && src[pos] == '|') {
            pos++;
            options.add(sequence(nested));
        }
        return alt(options);
    }

    private Expr sequence(boolean nested) {
        List<Expr> parts = new ArrayList<>();
        while (true) {
            skipSpace();
            if (pos >= src.length || src[pos] == '|' || src[pos] == ')' || (!nested && atRuleStart())) {
                return parts.isEmpty() ? empty() : seq(parts);
            }
            parts.add(repetitions(element()));
        }
    }

    private Expr element() {
        int start = pos;
        int c = src[pos++];
        switch (c) {
            case '"' -> {
                StringBuilder text = new StringBuilder();
                while (pos < src.length && src[pos] != '"') {
                    if (src[pos] == '\n') {
                        break;
                    }
                    text.appendCodePoint(character());
                }
                if (pos >= src.length || src[pos] != '"') {
                    throw error(start, "unterminated string literal");
                }
                pos++;
                return Expr.literal(text.toString());
            }
            case '[' -> {
                return charClass(start);
            }
            case '.' -> {
                return Expr.notRange();
            }
            case '(' -> {
                if (++nesting > MAX_NESTING) {
                    throw error(start, "groups nest more than " + MAX_NESTING + " deep");
                }
                Expr body = alternatives(true);
                nesting--;
                skipSpace();
                if (pos >= src.length || src[pos] != ')') {
                    throw error(start, "unclosed '('");
                }
                pos++;
                return body;
            }
            default -> {
                pos--;
                if (!isNameChar(c)) {
                    throw error(pos, "unexpected " + describe(c));
                }
                String name = name();
                firstUse.putIfAbsent(name, start);
                return Expr.ref(name);
            }
        }
    }

    private Expr charClass(int start) {
        boolean negated = pos < src.length && src[pos] == '^';
        if (negated) {
            pos++;
        }
        List<Integer> ranges = new ArrayList<>();
        while (pos < src.length && src[pos] != ']') {
            int at = pos;
            int lo = character();
            int hi = lo;
            if (pos + 1 < src.length && src[pos] == '-' && src[pos + 1] != ']') {
                pos++;
                hi = character();
                if (hi < lo) {
                    throw error(at, "range " + describe(lo) + "-" + describe(hi) + " is out of order");
                }
            }
            ranges.add(lo);
            ranges.add(hi);
        }
        if (pos >= src.length) {
            throw error(start, "unclosed '['");
        }
        pos++;
        return new Expr.CharClass(ranges.stream().mapToInt(Integer::intValue).toArray(), negated);
    }

    /** Postfix {@code * + ? {m} {m,} {m,n}}, which may follow one another. */
    private Expr repetitions(Expr e) {
        while (true) {
            int save = pos;
            skipSpace();
            if (pos >= src.length) {
                pos = save;
                return e;
            }
            switch (src[pos]) {
                case '*' -> e = Expr.star(e);
                case '+' -> e = Expr.plus(e);
                case '?' -> e = Expr.optional(e);
                case '{' -> e = bounded(e);
                default -> {
                    pos = save;
                    return e;
                }
            }
            pos++; // past the quantifier, or the brace that closes it
        }
    }

    /** {@code {m}}, {@code {m,}} or {@code {m,n}} at {@code pos}, leaving {@code pos} on the brace that closes it. */
    private Expr bounded(Expr e) {
        int start = pos;
        pos++;
        skipBlanks();
        int min = integer();
        int max = min;
        skipBlanks();
        if (pos < src.length && src[pos] == ',') {
            pos++;
            skipBlanks();
            max = pos < src.length && src[pos] == '}' ? -1 : integer();
            skipBlanks();
        }
        if (pos >= src.length || src[pos] != '}') {
            throw error(start, "expected '}' to close the repetition");
        }
        if (max >= 0 && max < min) {
            throw error(start, "repetition {" + min + "," + max + "} has its maximum below its minimum");
        }
        return repetition.of(e, min, max);
    }

    private int integer() {
        int start = pos;
        while (pos < src.length && src[pos] >= '0' && src[pos] <= '9') {
            pos++;
        }
        if (start == pos || pos - start > 6) {
            throw error(start, start == pos ? "expected a number" : "repetition count too large");
        }
        return Integer.parseInt(new String(src, start, pos - start));
    }

    /** One character of a literal or class, an escape or itself. */
    private int character() {
        if (pos >= src.length) {
            throw error(pos, "unexpected end of the grammar");
        }
        int start = pos;
        int c = src[pos++];
        if (c != '\\') {
            return c;
        }
        if (pos >= src.length) {
            throw error(start, "unexpected end of the grammar after '\\'");
        }
        int e = src[pos++];
        return switch (e) {
            case 'n' -> '\n';
            case 't' -> '\t';
            case 'r' -> '\r';
            case '\\', '"', '[', ']', '-' -> e;
            case 'x' -> hex(start, 2);
            case 'u' -> hex(start, 4);
            case 'U' -> hex(start, 8);
            default -> throw error(start, "unknown escape '\\" + Character.toString(e) + "'");
        };
    }

    private int hex(int start, int digits) {
        int value = 0;
        for (int i = 0; i < digits; i++) {
            int d = pos < src.length ? Character.digit(src[pos], 16) : -1;
            if (d < 0) {
                throw error(start, "expected " + digits + " hexadecimal digits in the escape");
            }
            value = value * 16 + d;
            pos++;
        }
        if (value > Character.MAX_CODE_POINT) {
            throw error(start, "escape beyond the last code point");
        }
        return value;
    }

    private String name() {
        int start = pos;
        while (pos < src.length && isNameChar(src[pos])) {
            pos++;
        }
        if (start == pos) {
            throw error(
                    pos,
                    pos < src.length ? "expected a rule name, found " + describe(src[pos]) : "expected a rule name");
        }
        return new String(src, start, pos - start);
    }

    /** Whether a rule definition {@code name ::=} starts here. */
    private boolean atRuleStart() {
        int p = pos;
        while (p < src.length && isNameChar(src[p])) {
            p++;
        }
        if (p == pos) {
            return false;
        }
        while (p < src.length && (src[p] == ' ' || src[p] == '\t')) {
            p++;
        }
        return p + 2 < src.length && src[p] == ':' && src[p + 1] == ':' && src[p + 2] == '=';
    }

    private static boolean isNameChar(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    }

    private boolean lookingAt(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (pos + i >= src.length || src[pos + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Skips whitespace, newlines included, and comments. */
    private void skipSpace() {
        while (pos < src.length) {
            if (src[pos] == '#') {
                while (pos < src.length && src[pos] != '\n') {
                    pos++;
                }
            } else if (Character.isWhitespace(src[pos])) {
                pos++;
            } else {
                return;
            }
        }
    }

    private void skipBlanks() {
        while (pos < src.length && (src[pos] == ' ' || src[pos] == '\t')) {
            pos++;
        }
    }

    private static String describe(int c) {
        return c == '\n' ? "a line break" : "'" + Character.toString(c) + "'";
    }

    private GrammarException error(int at, String message) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < at && i < src.length; i++) {
            if (src[i] == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return new GrammarException("GBNF line " + line + ", column " + column + ": " + message);
    }
}
