package com.llmserve.app.gpu;

import com.llmserve.gpu.AllocatorStats;
import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.MemoryInfo;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Reads every GPU on a schedule, one thread per device, and keeps the latest reading: meters and
 * health read that, so neither a scrape nor a request ever waits on the driver, NVML or rocm-smi,
 * and a device that hangs shows up as a reading growing old instead of a hung probe.
 */
public final class GpuTelemetry implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(GpuTelemetry.class);

    /**
     * One sample of a device.
     *
     * @param at        when it was taken
     * @param memory    the driver's view of device memory; null when the driver failed
     * @param telemetry the management library's reading; null where there is none
     * @param allocator the caching allocator's counters (kept by this process, so read even when the driver fails)
     * @param error     why the driver did not answer, or null
     */
    public record Reading(
            Instant at,
            MemoryInfo memory,
            DeviceTelemetry telemetry,
            AllocatorStats allocator,
            int streamsLeased,
            int streamCapacity,
            String error) {

        public boolean answered() {
            return error == null;
        }
    }

    private final GpuDevices devices;
    private final Duration interval;
    private final DeviceFaults faults;
    private final Clock clock;
    private final Map<String, Reading> latest = new ConcurrentHashMap<>();
    private volatile ScheduledExecutorService executor;

    public GpuTelemetry(GpuDevices devices, Duration interval, DeviceFaults faults, Clock clock) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("llmserve.gpu.telemetry-interval must be positive: " + interval);
        }
        this.devices = devices;
        this.interval = interval;
        this.faults = faults;
        this.clock = clock;
    }

    /** How often each device is read. */
    public Duration interval() {
        return interval;
    }

    /** The newest reading of a device; empty before its first. */
    public Optional<Reading> latest(String deviceId) {
        return Optional.ofNullable(latest.get(deviceId));
    }

    /** Reads every device once, now, on the caller's thread (the schedule does this on its own). */
    public void sampleAll() {
        devices.devices().forEach(this::sample);
    }

    void sample(GpuDevice device) {
        Instant at = clock.instant();
        // the allocator's counters and the stream pool live in this process: they answer whatever the device does
        AllocatorStats allocator = device.allocatorStats();
        int leased = device.streamsLeased();
        int capacity = device.streamCapacity();
        Reading reading;
        try {
            MemoryInfo memory = device.memoryInfo();
            DeviceTelemetry telemetry = null;
            try {
                telemetry = device.telemetry().orElse(null);
            } catch (RuntimeException e) {
                // the management library is optional: the device still works without it
                LOG.debug("No telemetry from {}: {}", device.id(), e.toString());
            }
            reading = new Reading(at, memory, telemetry, allocator, leased, capacity, null);
        } catch (RuntimeException e) {
            Reading before = latest.get(device.id());
            if (before == null || before.answered()) {
                LOG.error("GPU {} does not answer: {}", device.id(), e.getMessage());
            }
            faults.report(device.id(), e);
            reading = new Reading(
                    at,
                    null,
                    null,
                    allocator,
                    leased,
                    capacity,
                    e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
        latest.put(device.id(), reading);
    }

    @Override
    public void start() {
        if (devices.devices().isEmpty()) {
            return;
        }
        AtomicInteger n = new AtomicInteger();
        ScheduledExecutorService e =
                Executors.newScheduledThreadPool(devices.devices().size(), r -> Thread.ofPlatform()
                        .name("llmserve-gpu-telemetry-" + n.getAndIncrement())
                        .daemon(true)
                        .unstarted(r));
        for (GpuDevice device : devices.devices()) {
            e.scheduleWithFixedDelay(() -> sample(device), 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        }
        executor = e;
        LOG.info("Reading {} GPU(s) every {} ms", devices.devices().size(), interval.toMillis());
    }

    @Override
    public void stop() {
        ScheduledExecutorService e = executor;
        executor = null;
        if (e != null) {
            e.shutdownNow();
            try {
                e.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return executor != null;
    }
}
