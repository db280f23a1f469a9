package com.llmserve.app.models;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import java.util.Locale;

/**
 * Creates the compute backend of each model. The service's is {@link DefaultBackendProvider} (the
 * engine's {@link com.llmserve.engine.backend.Backends}); an application bean of this type
 * replaces it. A model whose backend is {@linkplain #accelerated accelerated} gets a circuit
 * breaker around it and, when it fits in memory, a CPU copy (from
 * {@code create(BackendChoice.CPU, ...)}) that takes its requests while the device fails.
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
            throw new IllegalStateException("model '" + modelId + "' asks for backend "
                    + choice.name().toLowerCase(Locale.ROOT) + ": no GPU backend available");
        }
    }

    /** A new backend for one model; the caller closes it with the model. */
    Backend create(BackendChoice choice, String modelId);

    /**
     * Whether {@code backend} runs on an accelerator (a GPU): its device can fail apart from the
     * process, so the model is guarded by a circuit breaker and may get a CPU copy. The CPU is
     * never guarded: its failures are the process's own.
     */
    default boolean accelerated(Backend backend) {
        return false;
    }

    /**
     * Where {@code backend} runs, as meters ({@code device} tag), health and logs name it:
     * {@code cpu}, {@code cuda:0}, {@code hip:1}. A GPU's name must be the one its device has in
     * the {@code gpu} health component, so the device's health knows the models on it.
     */
    default String device(Backend backend) {
        return backend.name();
    }

    /** A backend's name as logs and health details show it. */
    default String describe(Backend backend) {
        return backend.name();
    }
}
