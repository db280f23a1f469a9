package com.llmserve.gpu;

import java.util.Locale;

/** Which GPU runtime the pool may use. */
public enum RuntimeChoice {
    /**
     * HIP if it finds a device, else CUDA, else none: AMD first, the service's primary target
     * (docs/architecture.md), and a host never has both.
     */
    AUTO,
    HIP,
    CUDA,
    /** No GPU: the engine runs on the CPU. */
    NONE;

    /** Parses a configuration value ({@code auto}, {@code hip}, {@code cuda}, {@code none}), any case. */
    public static RuntimeChoice parse(String value) {
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "unknown GPU backend '" + value + "': expected auto, hip, cuda or none", e);
        }
    }
}
