package com.llmserve.engine.grammar;

import static com.llmserve.engine.grammar.Expr.alt;
import static com.llmserve.engine.grammar.Expr.ref;
import static com.llmserve.engine.grammar.Expr.repeat;
import static com.llmserve.engine.grammar.Expr.seq;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Bounded repetition that stays cheap for large bounds ({@code maxLength: 5000}, {@code x{0,10000}}).
 * {@link Grammar#of} lowers {@code body{0,n}} to a chain of n helper rules built by recursion, one
 * level per rule, which overflows the stack somewhere past a thousand. Here a span beyond {@link
 * #INLINE_SPAN} becomes rules defined one after another: up to n items is either fewer than 64, or
 * 64 and then up to n - 64.
 */
final class Repetition {

    static final int INLINE_SPAN = 64;

    private final Map<String, Expr> rules;
    private final String namePrefix;
    private final Map<List<Object>, String> chains = new HashMap<>();

    /** Rules go into {@code rules}, named {@code namePrefix} and a number. */
    Repetition(Map<String, Expr> rules, String namePrefix) {
        this.rules = rules;
        this.namePrefix = namePrefix;
    }

    /** {@code body} {@code min} to {@code max} times; {@code max < 0} for no limit. */
    Expr of(Expr body, int min, int max) {
        if (max < 0 || max - min <= INLINE_SPAN) {
            return repeat(body, min, max);
        }
        return seq(repeat(body, min, min), upTo(body, max - min));
    }

    /** Up to {@code n > INLINE_SPAN} repetitions, as a rule per 64 of them. */
    private Expr upTo(Expr body, int n) {
        String name = chains.get(List.of(body, n));
        if (name != null) {
            return ref(name);
        }
        Expr fewer = repeat(body, 0, INLINE_SPAN - 1);
        Expr full = repeat(body, INLINE_SPAN, INLINE_SPAN);
        int k = n % INLINE_SPAN + INLINE_SPAN; // the smallest count in the chain, 64..127
        Expr previous = repeat(body, 0, k - INLINE_SPAN);
        for (; k <= n; k += INLINE_SPAN) {
            name = namePrefix + chains.size() + "-" + k;
            rules.put(name, alt(seq(full, previous), fewer));
            previous = ref(name);
        }
        chains.put(List.of(body, n), name);
        return previous;
    }
}
