package com.llmserve.engine.backend;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Releases several things where an early failure must not leak the rest (a device in an error
 * state still frees; one shard's failure still closes the others).
 */
public final class Cleanup {

    private Cleanup() {}

    /** Runs every step; rethrows the first failure with the later ones suppressed. */
    public static void all(Runnable... steps) {
        RuntimeException failure = null;
        for (Runnable step : steps) {
            try {
                step.run();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** {@code action} on every item, as {@link #all}: the first failure rethrown after the last item. */
    public static <T> void each(Iterable<? extends T> items, Consumer<? super T> action) {
        List<Runnable> steps = new ArrayList<>();
        for (T item : items) {
            steps.add(() -> action.accept(item));
        }
        all(steps.toArray(Runnable[]::new));
    }
}
