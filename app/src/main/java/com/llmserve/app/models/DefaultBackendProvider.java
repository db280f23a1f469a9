package com.llmserve.app.models;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.Backends;
import java.util.List;
import java.util.Locale;

/**
 * The service's backends unless the application brings its own {@link BackendProvider}: the
 * engine's {@link Backends} over the GPU runtime's device pool, or over the CPU alone in a process
 * without one. Every backend it puts on a GPU is {@linkplain Backend#accelerated accelerated}, so its
 * model gets a circuit breaker and, when it fits, a CPU copy; a replica over several GPUs is the
 * engine's tensor-parallel backend ({@link Backends#openTensorParallel}).
 */
final class DefaultBackendProvider implements BackendProvider {

    private final Backends backends;

    DefaultBackendProvider(Backends backends) {
        this.backends = backends;
    }

    @Override
    public boolean available(BackendChoice choice) {
        return backends.available(choice);
    }

    @Override
    public void check(BackendChoice choice, String modelId) {
        backends.unavailable(choice).ifPresent(why -> {
            throw new IllegalStateException(
                    "model '" + modelId + "' asks for backend " + choice.name().toLowerCase(Locale.ROOT) + ": " + why);
        });
    }

    @Override
    public Backend create(BackendChoice choice, String modelId) {
        check(choice, modelId);
        return backends.open(choice);
    }

    @Override
    public int gpuCount() {
        return backends.gpuCount();
    }

    @Override
    public Backend createOn(int device, String modelId) {
        try {
            return backends.openOn(device);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("model '" + modelId + "': " + e.getMessage(), e);
        }
    }

    @Override
    public Backend createOn(List<Integer> devices, String modelId) {
        if (devices.size() == 1) {
            return createOn(devices.getFirst(), modelId);
        }
        try {
            return backends.openTensorParallel(
                    devices.stream().mapToInt(Integer::intValue).toArray());
        } catch (IllegalStateException e) {
            throw new IllegalStateException("model '" + modelId + "': " + e.getMessage(), e);
        }
    }
}
