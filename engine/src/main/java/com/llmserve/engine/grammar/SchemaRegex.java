package com.llmserve.engine.grammar;

import static com.llmserve.engine.grammar.Expr.alt;
import static com.llmserve.engine.grammar.Expr.empty;
import static com.llmserve.engine.grammar.Expr.seq;
import static com.llmserve.engine.grammar.Expr.star;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compiles the regular expressions of JSON Schema's {@code pattern} (ECMA-262 syntax) into a grammar
 * of the string's inside as JSON writes it, for the subset a grammar can express: characters and
 * escapes, classes, {@code .}, groups, alternation, the quantifiers {@code ? * + {m} {m,} {m,n}}
 * (lazy ones match the same strings), and {@code ^}/{@code $} at the ends of top-level
 * alternatives. A pattern is not anchored by default: without {@code ^} any text may come before
 * the match, without {@code $} any text after. Lookaround, backreferences, word boundaries and
 * Unicode property escapes are refused.
 */
final class SchemaRegex {

    private static final int[] DIGITS = {'0', '9'};
    private static final int[] WORD = CodePoints.of('0', '9', 'A', 'Z', '_', '_', 'a', 'z');
    private static final int[] SPACES = CodePoints.of(
            '\t', '\r', ' ', ' ', 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f,
            0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff);
    private static final Pattern BOUNDS = Pattern.compile("^\\{(\\d{1,6})(,(\\d{0,6}))?}");

    /** Deeper groups would overflow the stack of the compiler or of {@link Grammar#of}. */
    private static final int MAX_NESTING = 200;

    private static final int[] LINE_ENDS = CodePoints.of('\n', '\n', '\r', '\r', 0x2028, 0x2029);

    private final int[] cps;
    private final String pattern;
    private final String path;
    private final Expr anyChar;
    private final Repetition repetition;
    private int pos;
    private int nesting;

    private SchemaRegex(String pattern, String path, Expr anyChar, Repetition repetition) {
        this.pattern = pattern;
        this.cps = pattern.codePoints().toArray();
        this.path = path;
        this.anyChar = anyChar;
        this.repetition = repetition;
    }

    /**
     * The grammar of the JSON-encoded string contents that the pattern matches.
     *
     * @param anyChar one character of a JSON string in any spelling, for the unanchored ends
     * @param repetition where large bounded repetitions put their rules
     * @throws UnsupportedSchemaException naming {@code pattern} and {@code path} when the pattern is
     *     outside the subset or malformed
     */
    static Expr compile(String pattern, String path, Expr anyChar, Repetition repetition) {
        return new SchemaRegex(pattern, path, anyChar, repetition).topLevel();
    }

    private Expr topLevel() {
        List<Expr> branches = new ArrayList<>();
        do {
            boolean anchoredStart = eat('^');
            Expr body = sequence();
            boolean anchoredEnd = eat('$');
            if (pos < cps.length && cps[pos] != '|') {
                throw unsupported(cps[pos] == ')' ? "unbalanced ')'" : "'^' and '$' only at the ends of the pattern");
            }
            branches.add(seq(anchoredStart ? empty() : star(anyChar), body, anchoredEnd ? empty() : star(anyChar)));
        } while (eat('|'));
        return alt(branches);
    }

    private Expr disjunction() {
        List<Expr> options = new ArrayList<>();
        options.add(sequence());
        while (eat('|')) {
            options.add(sequence());
        }
        return alt(options);
    }

    private Expr sequence() {
        List<Expr> parts = new ArrayList<>();
        while (pos < cps.length && cps[pos] != '|' && cps[pos] != ')' && !atEndAnchor()) {
            parts.add(quantified(atom()));
        }
        return parts.isEmpty() ? empty() : seq(parts);
    }

    /** A {@code $} that ends a top-level alternative; anywhere else it is refused by the caller. */
    private boolean atEndAnchor() {
        return cps[pos] == '$' && (pos + 1 == cps.length || cps[pos + 1] == '|');
    }

    private Expr atom() {
        int c = cps[pos++];
        return switch (c) {
            case '(' -> group();
            case '[' -> chars(charClass());
            case '.' -> chars(CodePoints.complement(LINE_ENDS));
            case '\\' -> chars(escape(false));
            case '^', '$' -> throw unsupported("'^' and '$' only at the ends of the pattern");
            case '*', '+', '?' -> throw unsupported("nothing to repeat before '" + Character.toString(c) + "'");
            case '{' -> {
                pos--;
                if (bounds() != null) {
                    throw unsupported("nothing to repeat before '{'");
                }
                pos++;
                yield chars(one(c)); // a brace that starts no quantifier stands for itself
            }
            default -> chars(one(c));
        };
    }

    private Expr group() {
        if (++nesting > MAX_NESTING) {
            throw unsupported("groups nested more than " + MAX_NESTING + " deep");
        }
        if (eat('?')) {
            if (eat(':')) {
                // non-capturing
            } else if (pos + 1 < cps.length && cps[pos] == '<' && cps[pos + 1] != '=' && cps[pos + 1] != '!') {
                while (pos < cps.length && cps[pos] != '>') {
                    pos++;
                }
                expect('>');
            } else {
                throw unsupported("lookaround assertions");
            }
        }
        Expr body = disjunction();
        expect(')');
        nesting--;
        return body;
    }

    private Expr quantified(Expr atom) {
        if (pos >= cps.length) {
            return atom;
        }
        int[] b =
                switch (cps[pos]) {
                    case '*' -> new int[] {0, -1};
                    case '+' -> new int[] {1, -1};
                    case '?' -> new int[] {0, 1};
                    case '{' -> bounds();
                    default -> null;
                };
        if (b == null) {
            return atom;
        }
        if (cps[pos] != '{') {
            pos++;
        } else {
            skipBounds();
        }
        eat('?'); // lazy: the same strings
        if (b[1] < 0 && nullable(atom)) {
            throw unsupported("an unbounded repetition of something that can be empty");
        }
        if (b[1] >= 0 && b[1] < b[0]) {
            throw unsupported("repetition {" + b[0] + "," + b[1] + "} out of order");
        }
        return repetition.of(atom, b[0], b[1]);
    }

    /** The bounds of a {@code {m}}, {@code {m,}} or {@code {m,n}} at {@code pos}, or null if there is none. */
    private int[] bounds() {
        String rest = pattern.substring(pattern.offsetByCodePoints(0, pos));
        Matcher m = BOUNDS.matcher(rest);
        if (!m.find()) {
            return null;
        }
        int min = Integer.parseInt(m.group(1));
        int max = m.group(2) == null ? min : m.group(3).isEmpty() ? -1 : Integer.parseInt(m.group(3));
        return new int[] {min, max};
    }

    private void skipBounds() {
        while (cps[pos] != '}') {
            pos++;
        }
        pos++;
    }

    private int[] charClass() {
        boolean negated = eat('^');
        int[] set = {};
        while (pos < cps.length && cps[pos] != ']') {
            int[] from = classAtom();
            if (pos + 1 < cps.length && cps[pos] == '-' && cps[pos + 1] != ']') {
                pos++;
                int[] to = classAtom();
                if (!single(from) || !single(to) || from[0] > to[0]) {
                    throw unsupported("bad range in a character class");
                }
                set = CodePoints.union(set, new int[] {from[0], to[0]});
            } else {
                set = CodePoints.union(set, from);
            }
        }
        expect(']');
        return negated ? CodePoints.complement(set) : set;
    }

    private int[] classAtom() {
        int c = cps[pos++];
        return c == '\\' ? escape(true) : new int[] {c, c};
    }

    private static boolean single(int[] set) {
        return set.length == 2 && set[0] == set[1];
    }

    /** The characters of an escape, after its backslash. */
    private int[] escape(boolean inClass) {
        if (pos >= cps.length) {
            throw unsupported("a pattern ending in '\\'");
        }
        int c = cps[pos++];
        return switch (c) {
            case 'd' -> DIGITS;
            case 'D' -> CodePoints.complement(DIGITS);
            case 'w' -> WORD;
            case 'W' -> CodePoints.complement(WORD);
            case 's' -> SPACES;
            case 'S' -> CodePoints.complement(SPACES);
            case 't' -> one('\t');
            case 'n' -> one('\n');
            case 'r' -> one('\r');
            case 'f' -> one('\f');
            case 'v' -> one(0x0b);
            case '0' -> one(0);
            case 'b' -> {
                if (!inClass) {
                    throw unsupported("word boundaries (\\b)");
                }
                yield one('\b');
            }
            case 'c' -> {
                if (pos >= cps.length || !isAsciiLetter(cps[pos])) {
                    throw unsupported("a '\\c' escape without a letter");
                }
                yield one(cps[pos++] % 32);
            }
            case 'x' -> one(hex(2));
            case 'u' -> one(unicodeEscape());
            default -> {
                if (Character.isLetterOrDigit(c)) {
                    throw unsupported("the escape \\" + Character.toString(c));
                }
                yield one(c);
            }
        };
    }

    private static boolean isAsciiLetter(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private int unicodeEscape() {
        if (eat('{')) {
            int start = pos;
            while (pos < cps.length && cps[pos] != '}') {
                pos++;
            }
            int cp = parseHex(start, pos);
            expect('}');
            if (cp > Character.MAX_CODE_POINT) {
                throw unsupported("code point out of range");
            }
            return cp;
        }
        int cp = hex(4);
        if (Character.isHighSurrogate((char) cp) && pos + 1 < cps.length && cps[pos] == '\\' && cps[pos + 1] == 'u') {
            int save = pos;
            pos += 2;
            int low = hex(4);
            if (Character.isLowSurrogate((char) low)) {
                return Character.toCodePoint((char) cp, (char) low);
            }
            pos = save;
        }
        return cp;
    }

    private int hex(int digits) {
        int start = pos;
        pos += digits;
        if (pos > cps.length) {
            throw unsupported("a short hexadecimal escape");
        }
        return parseHex(start, pos);
    }

    private int parseHex(int from, int to) {
        try {
            return Integer.parseInt(new String(cps, from, to - from), 16);
        } catch (NumberFormatException e) {
            throw unsupported("a bad hexadecimal escape");
        }
    }

    private static int[] one(int c) {
        return new int[] {c, c};
    }

    private Expr chars(int[] set) {
        Expr e = JsonRules.encodedCharIn(set);
        if (e == null) {
            throw unsupported("a character class that matches nothing");
        }
        return e;
    }

    private static boolean nullable(Expr e) {
        return switch (e) {
            case Expr.Literal l -> l.text().isEmpty();
            case Expr.CharClass _, Expr.Ref _ -> false;
            case Expr.Seq s -> s.parts().stream().allMatch(SchemaRegex::nullable);
            case Expr.Alt a -> a.options().stream().anyMatch(SchemaRegex::nullable);
            case Expr.Repeat r -> r.min() == 0 || nullable(r.body());
        };
    }

    private boolean eat(int c) {
        if (pos < cps.length && cps[pos] == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(int c) {
        if (!eat(c)) {
            throw unsupported("expected '" + Character.toString(c) + "' at offset " + pos);
        }
    }

    private UnsupportedSchemaException unsupported(String what) {
        return new UnsupportedSchemaException("pattern", path, "cannot compile /" + pattern + "/: " + what);
    }
}
