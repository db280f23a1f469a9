package com.llmserve.engine.backend;

import java.util.Locale;

/** Where a model runs: the service's {@code llmserve.backend} setting and each model's own. */
public enum BackendChoice {
    /** A GPU when one answers, else the CPU. */
    AUTO,
    /** The Vector API backend; always available. */
    CPU,
    /** A GPU (HIP or CUDA); refused when none answers. */
    GPU;

    /** Parses {@code auto}, {@code cpu} or {@code gpu}, any case. */
    public static BackendChoice parse(String value) {
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown backend '" + value + "': expected auto, cpu or gpu", e);
        }
    }
}
