package com.llmserve.engine.grammar;

import java.util.Arrays;
import java.util.List;

/**
 * A grammar expression over Unicode code points: what the JSON Schema compiler, the GBNF parser
 * and the tool-call formats build, and {@link Grammar#of} lowers to rules. Repetition and nested
 * alternatives become helper rules there, so the builders can write expressions the way GBNF does.
 */
public sealed interface Expr {

    /** Matches exactly this text. */
    record Literal(String text) implements Expr {}

    /**
     * Matches one code point in (or, negated, outside) the inclusive ranges {@code [lo0, hi0, lo1, hi1, ...]}.
     */
    record CharClass(int[] ranges, boolean negated) implements Expr {
        public CharClass {
            if (ranges.length % 2 != 0) {
                throw new IllegalArgumentException("ranges come in pairs: " + Arrays.toString(ranges));
            }
            for (int i = 0; i < ranges.length; i += 2) {
                if (ranges[i] < 0 || ranges[i] > ranges[i + 1] || ranges[i + 1] > Character.MAX_CODE_POINT) {
                    throw new IllegalArgumentException("bad code point range " + ranges[i] + ".." + ranges[i + 1]);
                }
            }
            ranges = ranges.clone();
        }

        boolean matches(int cp) {
            boolean in = false;
            for (int i = 0; i < ranges.length && !in; i += 2) {
                in = cp >= ranges[i] && cp <= ranges[i + 1];
            }
            return in != negated;
        }

        /** Whether some code point in {@code [lo, hi]} matches. */
        boolean matchesSomeOf(int lo, int hi) {
            if (!negated) {
                for (int i = 0; i < ranges.length; i += 2) {
                    if (ranges[i] <= hi && ranges[i + 1] >= lo) {
                        return true;
                    }
                }
                return false;
            }
            // negated: some point of [lo, hi] escapes every range
            int next = lo;
            boolean moved = true;
            while (moved && next <= hi) {
                moved = false;
                for (int i = 0; i < ranges.length; i += 2) {
                    if (ranges[i] <= next && ranges[i + 1] >= next) {
                        next = ranges[i + 1] + 1;
                        moved = true;
                    }
                }
            }
            return next <= hi;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof CharClass c && negated == c.negated && Arrays.equals(ranges, c.ranges);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(ranges) * 31 + (negated ? 1 : 0);
        }

        @Override
        public String toString() {
            return "CharClass" + Arrays.toString(ranges) + (negated ? "^" : "");
        }
    }

    /** Matches the rule of this name. */
    record Ref(String name) implements Expr {}

    /** Matches its parts one after the other. */
    record Seq(List<Expr> parts) implements Expr {
        public Seq {
            parts = List.copyOf(parts);
        }
    }

    /** Matches any one of its options. */
    record Alt(List<Expr> options) implements Expr {
        public Alt {
            if (options.isEmpty()) {
                throw new IllegalArgumentException("an alternative needs at least one option");
            }
            options = List.copyOf(options);
        }
    }

    /** Matches {@code body} at least {@code min} and at most {@code max} times; {@code max < 0} for no limit. */
    record Repeat(Expr body, int min, int max) implements Expr {
        public Repeat {
            if (min < 0 || (max >= 0 && max < min)) {
                throw new IllegalArgumentException("bad repetition {" + min + "," + max + "}");
            }
        }
    }

    static Expr literal(String text) {
        return new Literal(text);
    }

    /** The empty string. */
    static Expr empty() {
        return new Literal("");
    }

    static Expr ref(String name) {
        return new Ref(name);
    }

    static Expr seq(Expr... parts) {
        return parts.length == 1 ? parts[0] : new Seq(List.of(parts));
    }

    static Expr seq(List<Expr> parts) {
        return parts.size() == 1 ? parts.getFirst() : new Seq(parts);
    }

    static Expr alt(Expr... options) {
        return options.length == 1 ? options[0] : new Alt(List.of(options));
    }

    static Expr alt(List<Expr> options) {
        return options.size() == 1 ? options.getFirst() : new Alt(options);
    }

    /** One code point in the inclusive ranges {@code lo0, hi0, lo1, hi1, ...}. */
    static Expr range(int... ranges) {
        return new CharClass(ranges, false);
    }

    /** One code point outside the inclusive ranges. */
    static Expr notRange(int... ranges) {
        return new CharClass(ranges, true);
    }

    /** One of these characters. */
    static Expr oneOf(String chars) {
        return new CharClass(
                chars.codePoints()
                        .flatMap(c -> java.util.stream.IntStream.of(c, c))
                        .toArray(),
                false);
    }

    static Expr optional(Expr body) {
        return new Repeat(body, 0, 1);
    }

    static Expr star(Expr body) {
        return new Repeat(body, 0, -1);
    }

    static Expr plus(Expr body) {
        return new Repeat(body, 1, -1);
    }

    static Expr repeat(Expr body, int min, int max) {
        return new Repeat(body, min, max);
    }
}
