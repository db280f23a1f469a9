package com.llmserve.app.models;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.backend.gpu.GpuBackend;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.BackendStatus;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.DevicePool;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The backends of a process that opened the GPU runtime: {@code gpu}, and {@code auto} when the
 * pool holds a device, run on a {@link GpuBackend} over one of the pool's devices; {@code cpu},
 * and {@code auto} on a machine without a GPU, on the CPU. GPU models are placed round robin in
 * load order, so there is one replica per device while models are no more than devices. The pool
 * stays the application's (a bean, closed after the models): backends open on its devices and
 * close without it. Every backend this provider puts on a GPU is {@linkplain #accelerated
 * accelerated}, so its model gets a circuit breaker and, when it fits, a CPU copy.
 */
final class DeviceBackendProvider implements BackendProvider {

    private final DevicePool pool;
    private final int threads;
    private final GpuOptions options;
    private final AtomicInteger next = new AtomicInteger();
    /** The GPU backends handed out, with their description; weak, so a closed model's backend goes. */
    private final Map<Backend, String> gpu = Collections.synchronizedMap(new WeakHashMap<>());

    DeviceBackendProvider(DevicePool pool, int threads, GpuOptions options) {
        this.pool = pool;
        this.threads = threads;
        this.options = options;
    }

    @Override
    public boolean available(BackendChoice choice) {
        return choice != BackendChoice.GPU || !pool.isEmpty();
    }

    @Override
    public void check(BackendChoice choice, String modelId) {
        if (!available(choice)) {
            throw new IllegalStateException("model '" + modelId + "' asks for backend "
                    + choice.name().toLowerCase(Locale.ROOT)
                    + ": no GPU backend available ("
                    + pool.statuses().stream().map(BackendStatus::toString).collect(Collectors.joining("; ")) + ")");
        }
    }

    @Override
    public Backend create(BackendChoice choice, String modelId) {
        check(choice, modelId);
        if (choice == BackendChoice.CPU || pool.isEmpty()) {
            return new CpuBackend(threads);
        }
        Device device = pool.devices()
                .get(Math.floorMod(next.getAndIncrement(), pool.devices().size()));
        GpuBackend backend = GpuBackend.open(device, options);
        gpu.put(
                backend,
                backend.name() + " (" + device.info().name() + ", "
                        + device.info().arch() + ")");
        return backend;
    }

    @Override
    public boolean accelerated(Backend backend) {
        return gpu.containsKey(backend);
    }

    @Override
    public String describe(Backend backend) {
        String d = gpu.get(backend);
        return d != null ? d : backend.name() + " (" + threads + " threads)";
    }
}
