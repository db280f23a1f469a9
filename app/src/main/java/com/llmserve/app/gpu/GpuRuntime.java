package com.llmserve.app.gpu;

import com.llmserve.gpu.BackendStatus;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RuntimeChoice;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GPU runtime this process opened: its device pool (one per process, owned here and closed
 * after the models), or why there is none. A machine without a GPU gets an empty pool; a build
 * without GPU code objects (the CPU image) cannot open one at all, and runs on the CPU as well.
 */
public final class GpuRuntime implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GpuRuntime.class);

    private final DevicePool pool;
    private final List<String> statuses;

    private GpuRuntime(DevicePool pool, List<String> statuses) {
        this.pool = pool;
        this.statuses = statuses;
    }

    /** Opens the pool; a runtime that cannot be opened is a runtime with no device, logged with why. */
    public static GpuRuntime open(RuntimeChoice choice) {
        return open(() -> DevicePool.open(choice));
    }

    static GpuRuntime open(Supplier<DevicePool> opener) {
        try {
            DevicePool pool = opener.get();
            return new GpuRuntime(
                    pool, pool.statuses().stream().map(BackendStatus::toString).toList());
        } catch (RuntimeException e) {
            // e.g. the CPU image's kernels jar holds no code objects: nothing to run on a GPU with
            LOG.warn("GPU runtime not opened, serving on the CPU: {}", e.getMessage());
            return new GpuRuntime(null, List.of("GPU runtime not opened: " + e.getMessage()));
        }
    }

    /** The device pool; empty when the runtime could not be opened. */
    public Optional<DevicePool> pool() {
        return Optional.ofNullable(pool);
    }

    /** Why discovery found what it found, one line per backend. */
    public List<String> statuses() {
        return statuses;
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.close();
        }
    }
}
