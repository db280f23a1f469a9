package com.llmserve.app.gpu;

import com.llmserve.gpu.AllocatorStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.ToDoubleFunction;

/**
 * The meters of every GPU, tagged by {@code device}: memory, utilisation, temperature, power, and
 * the runtime's own allocator bytes and stream leases. Each reads the telemetry sampler's latest
 * reading, so a scrape never calls the driver; a value not read yet (or not offered by the
 * device's management library) is NaN.
 */
final class GpuMetrics implements MeterBinder {

    private final GpuDevices devices;
    private final GpuTelemetry telemetry;

    GpuMetrics(GpuDevices devices, GpuTelemetry telemetry) {
        this.devices = devices;
        this.telemetry = telemetry;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (GpuDevice d : devices.devices()) {
            Tags tags = Tags.of("device", d.id());
            gauge(
                    registry,
                    d,
                    tags,
                    "llm.gpu.memory.used",
                    BaseUnits.BYTES,
                    "Device memory in use by every process, as the driver reports it",
                    r -> r.memory() == null ? Double.NaN : r.memory().used());
            gauge(
                    registry,
                    d,
                    tags,
                    "llm.gpu.memory.total",
                    BaseUnits.BYTES,
                    "Device memory",
                    r -> r.memory() == null ? Double.NaN : r.memory().total());
            gauge(
                    registry,
                    d,
                    tags,
                    "llm.gpu.utilization",
                    "ratio",
                    "Share of the last sample period the GPU was busy (NVML or rocm-smi)",
                    r -> r.telemetry() == null ? Double.NaN : r.telemetry().utilizationPercent() / 100.0);
            gauge(
                    registry,
                    d,
                    tags,
                    "llm.gpu.temperature",
                    "celsius",
                    "GPU (NVIDIA) or edge (AMD) temperature",
                    r -> r.telemetry() == null ? Double.NaN : r.telemetry().temperatureCelsius());
            gauge(
                    registry,
                    d,
                    tags,
                    "llm.gpu.power",
                    "watts",
                    "Board power draw",
                    r -> r.telemetry() == null ? Double.NaN : r.telemetry().powerWatts());
            gauge(
                    registry,
                    d,
                    tags,
                    "llm.gpu.allocator.memory.used",
                    BaseUnits.BYTES,
                    "Bytes of live buffers of this process's caching allocator",
                    r -> r.allocator().bytesInUse());
            gauge(
                    registry,
                    d,
                    tags,
                    "llm.gpu.allocator.memory.cached",
                    BaseUnits.BYTES,
                    "Bytes the caching allocator keeps for reuse (freed by their users, not returned to the driver)",
                    r -> r.allocator().bytesCached());
            counter(
                    registry,
                    d,
                    tags,
                    "llm.gpu.allocator.driver.allocations",
                    "allocations",
                    "Allocations that reached the driver's malloc (the cache missed)",
                    AllocatorStats::driverAllocations);
            counter(
                    registry,
                    d,
                    tags,
                    "llm.gpu.allocator.cache.hits",
                    "allocations",
                    "Allocations served from the caching allocator's cache",
                    AllocatorStats::cacheHits);
            gauge(
                    registry,
                    d,
                    tags,
                    "llm.gpu.streams.leased",
                    "streams",
                    "Streams of the device's pool leased to a batch or request",
                    GpuTelemetry.Reading::streamsLeased);
            gauge(
                    registry,
                    d,
                    tags,
                    "llm.gpu.streams.capacity",
                    "streams",
                    "The most streams the device's pool leases at once",
                    GpuTelemetry.Reading::streamCapacity);
            Gauge.builder("llm.gpu.info", () -> 1)
                    .description("The device and its marketing name (always 1)")
                    .tags(tags)
                    .tag("name", d.name())
                    .register(registry);
        }
    }

    private void gauge(
            MeterRegistry registry,
            GpuDevice d,
            Tags tags,
            String name,
            String unit,
            String description,
            ToDoubleFunction<GpuTelemetry.Reading> value) {
        Gauge.builder(name, this, m -> m.telemetry
                        .latest(d.id())
                        .map(value::applyAsDouble)
                        .orElse(Double.NaN))
                .baseUnit(unit)
                .description(description)
                .tags(tags)
                .strongReference(true)
                .register(registry);
    }

    /** A count the allocator keeps (zero before the first reading). */
    private void counter(
            MeterRegistry registry,
            GpuDevice d,
            Tags tags,
            String name,
            String unit,
            String description,
            ToDoubleFunction<AllocatorStats> value) {
        FunctionCounter.builder(name, this, m -> m.telemetry
                        .latest(d.id())
                        .map(r -> value.applyAsDouble(r.allocator()))
                        .orElse(0.0))
                .baseUnit(unit)
                .description(description)
                .tags(tags)
                .register(registry);
    }
}
