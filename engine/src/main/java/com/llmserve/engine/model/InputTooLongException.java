package com.llmserve.engine.model;

/**
 * An input has more tokens than the model's context: a client error (the service answers 400),
 * raised before any work is done.
 */
public final class InputTooLongException extends IllegalArgumentException {

    private final int index;
    private final int tokens;
    private final int limit;

    public InputTooLongException(int index, int tokens, int limit) {
        super("input " + index + " has " + tokens + " tokens, more than the model's context of " + limit);
        this.index = index;
        this.tokens = tokens;
        this.limit = limit;
    }

    /** Position of the offending input in the call's list. */
    public int index() {
        return index;
    }

    public int tokens() {
        return tokens;
    }

    public int limit() {
        return limit;
    }
}
