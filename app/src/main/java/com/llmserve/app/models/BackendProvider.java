package com.llmserve.app.models;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import java.util.List;
import java.util.Locale;

/**
 * Creates the compute backend of each model. The service's is {@link DefaultBackendProvider} (the
 * engine's {@link com.llmserve.engine.backend.Backends}); an application bean of this type
 * replaces it. A model whose backend is {@linkplain Backend#accelerated accelerated} gets a
 * circuit breaker around it and, when it fits in memory, a CPU copy (from
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

    /** The GPUs a model's replicas can be placed on ({@code llmserve.models[].devices}); 0 without GPUs. */
    default int gpuCount() {
        return available(BackendChoice.GPU) ? 1 : 0;
    }

    /**
     * A new backend for one replica of a model on GPU {@code device}; the caller closes it.
     *
     * @throws IllegalStateException when there is no such GPU
     */
    default Backend createOn(int device, String modelId) {
        if (device != 0 || gpuCount() == 0) {
            throw new IllegalStateException("model '" + modelId + "' asks for GPU " + device + ": "
                    + (gpuCount() == 0 ? "no GPU backend available" : "this provider places models on one GPU"));
        }
        return create(BackendChoice.GPU, modelId);
    }

    /**
     * A new backend for one replica of a model split over GPUs {@code devices}, in rank order
     * ({@code llmserve.models[].tensor-parallel-size}); the caller closes it, and its
     * {@link Backend#shards()} with it. One device is {@link #createOn(int, String)}.
     *
     * @throws IllegalStateException when a GPU is missing or the model cannot be split over them
     */
    default Backend createOn(List<Integer> devices, String modelId) {
        if (devices.isEmpty()) {
            throw new IllegalArgumentException("model '" + modelId + "': a replica needs at least one GPU");
        }
        if (devices.size() == 1) {
            return createOn(devices.getFirst(), modelId);
        }
        throw new IllegalStateException("model '" + modelId + "' asks for a replica split over GPUs " + devices
                + ": this provider does not split models over GPUs");
    }
}
