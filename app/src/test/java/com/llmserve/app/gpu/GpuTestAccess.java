package com.llmserve.app.gpu;

import com.llmserve.gpu.DevicePool;
import io.micrometer.core.instrument.MeterRegistry;

/** Package-private parts of the GPU wiring, for tests of other packages. */
public final class GpuTestAccess {

    private GpuTestAccess() {}

    public static GpuDevices devices(DevicePool pool) {
        return new PoolDevices(pool);
    }

    public static void bindMetrics(GpuDevices devices, GpuTelemetry telemetry, MeterRegistry registry) {
        new GpuMetrics(devices, telemetry).bindTo(registry);
    }
}
