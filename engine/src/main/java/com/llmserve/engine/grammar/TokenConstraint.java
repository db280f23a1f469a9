package com.llmserve.engine.grammar;

/**
 * One sequence's place in its grammar: which tokens may come next, whether it may end now, and
 * the step to the next state once a token is chosen. Not thread-safe: it belongs to the sequence
 * (the engine loop thread); the {@link TokenAutomaton} behind it is shared.
 */
public final class TokenConstraint {

    private final TokenAutomaton automaton;
    private final Object[] next = new Object[2];
    private GrammarState state;
    /** Bytes of a character that the last token left unfinished ({@link Utf8Step}). */
    private long pending = Utf8Step.NONE;

    TokenConstraint(TokenAutomaton automaton, GrammarState state) {
        this.automaton = automaton;
        this.state = state;
    }

    /** One bit per token id ({@code mask[t >>> 6] >>> t & 1}) for the tokens that may come next. Do not modify. */
    public long[] allowed() {
        return automaton.masks(state, pending).allowed();
    }

    /**
     * The tokens that may come next when at most {@code budget} more tokens may be generated, so
     * that a choice cut off by its token limit still ends in the grammar's language (a JSON answer
     * closes its strings and brackets instead of stopping mid-value). Every token writes at least
     * one character, so a token is allowed only if the characters still needed after it fit the
     * tokens left after it; when even that cannot be kept, only tokens that bring the text closer
     * to complete are allowed.
     */
    public long[] allowed(int budget) {
        StateMasks m = automaton.masks(state, pending);
        if (m.distance() >= budget && m.anyClosing()) {
            return m.closing();
        }
        return m.within(budget - 1);
    }

    /** Whether token {@code t} may come next; cheaper than {@link #allowed()} for a few candidates. */
    public boolean allows(int t) {
        StateMasks cached = pending == Utf8Step.NONE ? state.masks : null;
        if (cached != null) {
            return (cached.allowed()[t >>> 6] >>> t & 1) != 0;
        }
        return automaton.allows(state, pending, t, null);
    }

    /** Whether the text so far is complete, so the sequence may end (EOS or a stop token may be chosen). */
    public boolean canEnd() {
        return pending == Utf8Step.NONE && state.canEnd();
    }

    /** Whether the text is complete and nothing may follow: the sequence must end now. */
    public boolean mustEnd() {
        return canEnd() && state.isFinal();
    }

    /**
     * Moves past a chosen token.
     *
     * @throws IllegalArgumentException when the grammar does not allow the token here
     */
    public void accept(int token) {
        if (!automaton.allows(state, pending, token, next)) {
            throw new IllegalArgumentException("token " + token + " is not allowed by the grammar here");
        }
        state = (GrammarState) next[0];
        pending = (Long) next[1];
    }
}
