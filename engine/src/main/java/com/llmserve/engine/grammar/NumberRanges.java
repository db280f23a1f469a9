package com.llmserve.engine.grammar;

import static com.llmserve.engine.grammar.Expr.alt;
import static com.llmserve.engine.grammar.Expr.literal;
import static com.llmserve.engine.grammar.Expr.range;
import static com.llmserve.engine.grammar.Expr.repeat;
import static com.llmserve.engine.grammar.Expr.seq;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Digit grammars for numbers between bounds, so that {@code minimum}/{@code maximum} hold by
 * construction: a range of integers splits into ranges of equal digit count, and those into a
 * fixed leading digit and a free or recursively bounded rest, the way llama.cpp builds its
 * min/max integer rules.
 */
final class NumberRanges {

    private NumberRanges() {}

    /** Integers in {@code [lo, hi]} as JSON writes them: no leading zeros, no {@code -0}; null if none. */
    static Expr integers(BigInteger lo, BigInteger hi) {
        List<Expr> options = new ArrayList<>();
        if (hi.signum() >= 0 && lo.compareTo(hi) <= 0) {
            options.add(naturals(lo.max(BigInteger.ZERO), hi));
        }
        if (lo.signum() < 0 && lo.compareTo(hi) <= 0) {
            options.add(seq(literal("-"), naturals(hi.negate().max(BigInteger.ONE), lo.negate())));
        }
        return options.isEmpty() ? null : alt(options);
    }

    /**
     * Decimal numbers in {@code [lo, hi]} without exponent: integers in the range, and numbers with a
     * fraction whose integer part leaves room for it below the bound (so {@code 2.5} only if
     * {@code hi >= 3}). A subset of the numbers in range, all of them inside it; null if none.
     */
    static Expr decimals(BigInteger lo, BigInteger hi) {
        List<Expr> options = new ArrayList<>();
        Expr exact = integers(lo, hi);
        if (exact != null) {
            options.add(exact);
        }
        // x = i.f with 0 <= i, lo <= i, i + 1 <= hi
        if (hi.compareTo(BigInteger.ONE) >= 0 && lo.max(BigInteger.ZERO).compareTo(hi.subtract(BigInteger.ONE)) <= 0) {
            options.add(withFraction(naturals(lo.max(BigInteger.ZERO), hi.subtract(BigInteger.ONE))));
        }
        // x = -(i.f) with i >= 0, -hi <= i, i + 1 <= -lo
        BigInteger least = hi.negate().max(BigInteger.ZERO);
        BigInteger most = lo.negate().subtract(BigInteger.ONE);
        if (most.signum() >= 0 && least.compareTo(most) <= 0) {
            options.add(seq(literal("-"), withFraction(naturals(least, most))));
        }
        return options.isEmpty() ? null : alt(options);
    }

    private static Expr withFraction(Expr integral) {
        return seq(integral, literal("."), JsonRules.fractionDigits());
    }

    /** Integers in {@code [lo, hi]}, {@code 0 <= lo <= hi}, split by digit count. */
    private static Expr naturals(BigInteger lo, BigInteger hi) {
        List<Expr> options = new ArrayList<>();
        for (int digits = lo.toString().length(); digits <= hi.toString().length(); digits++) {
            BigInteger first = digits == 1 ? BigInteger.ZERO : BigInteger.TEN.pow(digits - 1);
            BigInteger last = BigInteger.TEN.pow(digits).subtract(BigInteger.ONE);
            options.add(sameLength(lo.max(first).toString(), hi.min(last).toString()));
        }
        return alt(options);
    }

    /** Digit strings of one length between {@code lo} and {@code hi}, digit by digit. */
    private static Expr sameLength(String lo, String hi) {
        if (lo.isEmpty()) {
            return literal("");
        }
        char a = lo.charAt(0);
        char b = hi.charAt(0);
        String loRest = lo.substring(1);
        String hiRest = hi.substring(1);
        if (a == b) {
            return seq(literal(String.valueOf(a)), sameLength(loRest, hiRest));
        }
        boolean loRestFree = loRest.chars().allMatch(c -> c == '0');
        boolean hiRestFree = hiRest.chars().allMatch(c -> c == '9');
        List<Expr> options = new ArrayList<>();
        if (!loRestFree) {
            options.add(seq(literal(String.valueOf(a)), sameLength(loRest, "9".repeat(loRest.length()))));
        }
        char from = loRestFree ? a : (char) (a + 1);
        char to = hiRestFree ? b : (char) (b - 1);
        if (from <= to) {
            options.add(seq(range(from, to), repeat(range('0', '9'), loRest.length(), loRest.length())));
        }
        if (!hiRestFree) {
            options.add(seq(literal(String.valueOf(b)), sameLength("0".repeat(hiRest.length()), hiRest)));
        }
        return alt(options);
    }
}
