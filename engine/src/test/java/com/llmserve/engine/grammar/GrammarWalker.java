package com.llmserve.engine.grammar;

import java.util.Random;
import java.util.stream.IntStream;

/**
 * Generates random sentences of a grammar the way constrained decoding does: character by
 * character, each drawn from the candidates the grammar still accepts. Once a sentence passes its
 * length budget the walker prefers the characters that close things ({@code " } ]}), so recursive
 * grammars end.
 */
final class GrammarWalker {

    /** Printable ASCII, the whitespace JSON allows, a control character, and some non-ASCII. */
    private static final int[] CANDIDATES = IntStream.concat(
                    IntStream.rangeClosed(0x20, 0x7e), IntStream.of('\n', '\t', '\r', 0x01, 'é', 'ß', '✓', 0x1f600))
            .toArray();

    private static final String CLOSERS = "\"}]0";

    private final Grammar grammar;
    private final Random random;
    private final int budget;

    GrammarWalker(Grammar grammar, long seed, int budget) {
        this.grammar = grammar;
        this.random = new Random(seed);
        this.budget = budget;
    }

    String next() {
        GrammarState state = GrammarState.start(grammar);
        StringBuilder out = new StringBuilder();
        while (!state.isFinal()) {
            boolean over = out.length() > budget;
            if (state.canEnd() && (over || random.nextInt(3) == 0)) {
                break;
            }
            if (out.length() > 50 * budget) {
                throw new AssertionError("the walk does not end: " + out);
            }
            int cp = over ? closer(state) : -1;
            if (cp < 0) {
                cp = anyAccepted(state);
            }
            if (cp < 0) {
                throw new AssertionError("no candidate character is accepted after: " + out);
            }
            state = state.accept(cp);
            out.appendCodePoint(cp);
        }
        return out.toString();
    }

    private static int closer(GrammarState state) {
        for (int i = 0; i < CLOSERS.length(); i++) {
            if (state.accept(CLOSERS.charAt(i)) != null) {
                return CLOSERS.charAt(i);
            }
        }
        return -1;
    }

    /** A uniformly random accepted candidate: candidates in random order, the first accepted. */
    private int anyAccepted(GrammarState state) {
        int[] order = CANDIDATES.clone();
        for (int n = order.length; n > 0; n--) {
            int i = random.nextInt(n);
            int cp = order[i];
            if (state.accept(cp) != null) {
                return cp;
            }
            order[i] = order[n - 1];
        }
        return -1;
    }
}
