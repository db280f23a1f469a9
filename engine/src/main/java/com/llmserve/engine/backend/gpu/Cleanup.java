package com.llmserve.engine.backend.gpu;

/** Releases several things where an early failure must not leak the rest (a device in an error state still frees). */
final class Cleanup {

    private Cleanup() {}

    /** Runs every step; rethrows the first failure with the later ones suppressed. */
    static void all(Runnable... steps) {
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
}
