package com.llmserve.gpu.spi;

import com.llmserve.gpu.Vendor;

/**
 * A GPU runtime the pool can discover: {@code hip} or {@code cuda}. Implemented in this module
 * only; the engine uses {@link com.llmserve.gpu.DevicePool} and never sees this interface.
 */
public interface Backend {

    /** Short name used in configuration and reports: {@code hip}, {@code cuda}. */
    String name();

    Vendor vendor();

    /**
     * Loads the vendor runtime and counts devices. Never throws: a missing library, a failing
     * init or zero devices all come back as {@link Probe.Unavailable} with the vendor's words.
     */
    Probe probe();

    /** What probing found. */
    sealed interface Probe {
        record Available(Driver driver) implements Probe {}

        record Unavailable(String reason) implements Probe {}
    }
}
