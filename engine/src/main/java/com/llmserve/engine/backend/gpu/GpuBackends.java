package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Backend;
import com.llmserve.gpu.BackendStatus;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RuntimeChoice;
import java.util.Optional;
import java.util.stream.Collectors;

/** Opens a GPU backend on the first device discovery finds (HIP, then CUDA), for {@code Backends}. */
public final class GpuBackends {

    /** The backend, or why there is none (each runtime's status, in its own words). */
    public record Opened(Optional<Backend> backend, String reason) {}

    private GpuBackends() {}

    public static Opened openFirst(GpuOptions options) {
        DevicePool pool = DevicePool.open(RuntimeChoice.AUTO);
        if (pool.isEmpty()) {
            String reason =
                    pool.statuses().stream().map(BackendStatus::toString).collect(Collectors.joining("; "));
            pool.close();
            return new Opened(Optional.empty(), reason.isEmpty() ? "no GPU runtime" : reason);
        }
        try {
            return new Opened(Optional.of(GpuBackend.owning(pool, pool.device(0), options)), "");
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }
}
