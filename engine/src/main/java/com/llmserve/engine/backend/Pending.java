package com.llmserve.engine.backend;

/**
 * Results a backend is still computing ({@link Backend#topKLater}): they are in the arrays they
 * were asked into once {@link #await} returns. Awaiting twice is harmless.
 */
@FunctionalInterface
public interface Pending {

    /** Results that were ready when they were returned. */
    Pending DONE = () -> {};

    /** Returns once the results are in place; throws what computing them threw. */
    void await();
}
