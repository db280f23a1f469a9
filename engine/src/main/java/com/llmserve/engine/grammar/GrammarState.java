package com.llmserve.engine.grammar;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a parse stands: the set of stacks that are still alive (each with a character class on
 * top), and whether the text so far is already a complete sentence. Immutable; equal states are
 * interchangeable, which is what lets a {@link TokenAutomaton} cache a state's transitions and
 * token mask once it has interned it.
 */
public final class GrammarState {

    private final Grammar grammar;
    private final Stack[] stacks;
    private final boolean accepting;
    private final int hash;

    /** Set once interned: the transitions taken from here, and what the vocabulary offers here. */
    volatile Map<Integer, Object> transitions;

    volatile StateMasks masks;

    /** {@link #distance()}, once computed (-1 before). */
    private int distance = -1;

    private GrammarState(Grammar grammar, Stack[] stacks, boolean accepting) {
        this.grammar = grammar;
        this.stacks = stacks;
        this.accepting = accepting;
        int h = accepting ? 1 : 0;
        for (Stack s : stacks) {
            h += s.hashCode(); // order-free: the stacks are a set
        }
        this.hash = h;
    }

    /** The state before any text. */
    public static GrammarState start(Grammar grammar) {
        Set<Stack> out = new LinkedHashSet<>();
        boolean[] accepting = {false};
        for (int a : grammar.alternatives[grammar.root]) {
            expand(grammar, grammar.elements[a] == Grammar.END ? null : new Stack(a, null), out, accepting);
        }
        return new GrammarState(grammar, out.toArray(Stack[]::new), accepting[0]);
    }

    public Grammar grammar() {
        return grammar;
    }

    /** The state after one more code point, or null when the grammar cannot take it here. */
    public GrammarState accept(int cp) {
        Set<Stack> out = new LinkedHashSet<>();
        boolean[] accepting = {false};
        for (Stack s : stacks) {
            if (grammar.classes[-grammar.elements[s.pos] - 1].matches(cp)) {
                expand(grammar, after(grammar, s), out, accepting);
            }
        }
        if (out.isEmpty() && !accepting[0]) {
            return null;
        }
        return new GrammarState(grammar, out.toArray(Stack[]::new), accepting[0]);
    }

    /** Whether the text so far is a complete sentence of the grammar. */
    public boolean canEnd() {
        return accepting;
    }

    /** Whether nothing can follow: the sentence is complete and cannot grow. */
    public boolean isFinal() {
        return stacks.length == 0;
    }

    /** The fewest characters that complete the text from here (0 when it is complete). */
    public int distance() {
        if (distance < 0) {
            distance = computeDistance(); // a benign race: every thread computes the same value
        }
        return distance;
    }

    private int computeDistance() {
        if (accepting) {
            return 0;
        }
        int best = Integer.MAX_VALUE;
        for (Stack s : stacks) {
            long sum = 0;
            for (Stack f = s; f != null && sum < best; f = f.next) {
                sum += grammar.minRest[f.pos];
            }
            best = (int) Math.min(best, sum);
        }
        return best;
    }

    /** Whether some code point in {@code [lo, hi]} can come next (for a character whose first bytes are known). */
    public boolean acceptsSomeOf(int lo, int hi) {
        for (Stack s : stacks) {
            if (grammar.classes[-grammar.elements[s.pos] - 1].matchesSomeOf(lo, hi)) {
                return true;
            }
        }
        return false;
    }

    /** The frame after the element on top of {@code s}, with finished frames popped. */
    private static Stack after(Grammar g, Stack s) {
        return g.elements[s.pos + 1] == Grammar.END ? s.next : new Stack(s.pos + 1, s.next);
    }

    /** Adds the stacks {@code s} reaches without consuming input, each with a character class on top. */
    private static void expand(Grammar g, Stack s, Set<Stack> out, boolean[] accepting) {
        if (s == null) {
            accepting[0] = true;
            return;
        }
        int e = g.elements[s.pos];
        if (e < 0) {
            out.add(s);
            return;
        }
        Stack ret = after(g, s);
        for (int a : g.alternatives[e]) {
            expand(g, g.elements[a] == Grammar.END ? ret : new Stack(a, ret), out, accepting);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof GrammarState other)
                || hash != other.hash
                || accepting != other.accepting
                || grammar != other.grammar
                || stacks.length != other.stacks.length) {
            return false;
        }
        return Set.of(stacks).equals(Set.of(other.stacks));
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return "GrammarState[" + stacks.length + " stacks" + (accepting ? ", complete" : "") + "]";
    }

    static Map<Integer, Object> newTransitions() {
        return new ConcurrentHashMap<>();
    }
}
