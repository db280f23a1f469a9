package com.llmserve.app.models;

import com.llmserve.engine.backend.Backend;

import java.util.Locale;

/**
 * Creates the compute backend of each model. The default serves the CPU only; a GPU build
 * replaces this bean.
 */
public interface BackendProvider {

    /** Whether models asking for {@code choice} can be served. */
    boolean available(BackendChoice choice);

    /**
     * Refuses a choice this provider cannot serve.
     *
     * @throws IllegalStateException naming the model and the missing backend
     */
    default void check(BackendChoice choice, String modelId) {
        if (!available(choice)) {
            throw new IllegalStateException("model '" + modelId + "' asks for backend " + choice.name().toLowerCase(Locale.ROOT)
                    + ": no GPU backend available");
        }
    }

    /** A new backend for one model; the caller closes it with the model. */
    Backend create(BackendChoice choice, String modelId);

    /** A backend's name as logs and health details show it. */
    default String describe(Backend backend) {
        return backend.name();
    }
}
