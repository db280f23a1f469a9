package com.llmserve.app.gpu;

import com.llmserve.gpu.AllocatorStats;
import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.MemoryInfo;
import java.util.Optional;

/**
 * One GPU as operations see it: what the driver, the management library (NVML, rocm-smi) and the
 * runtime's allocator and stream pool say about it. Calls may reach the driver, so only the
 * {@link GpuTelemetry} sampler makes them, on its own thread, never a request or a scrape.
 */
public interface GpuDevice {

    /**
     * The device's name in meters, health and logs: {@code cuda:0}, {@code hip:1}, the name its
     * compute backend reports, so a model's breaker and its device line up.
     */
    String id();

    /** The marketing name the driver reports. */
    String name();

    /** Device memory as the driver sees it (every process's use included). */
    MemoryInfo memoryInfo();

    /** Utilisation, temperature and power from NVML or rocm-smi; empty where that library is missing. */
    Optional<DeviceTelemetry> telemetry();

    /** The caching allocator's counters. */
    AllocatorStats allocatorStats();

    /** Streams of the device's pool leased right now. */
    int streamsLeased();

    /** The most streams the pool hands out at once. */
    int streamCapacity();
}
