package com.llmserve.app.gpu;

import com.llmserve.gpu.AllocatorStats;
import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.MemoryInfo;
import java.util.List;
import java.util.Optional;

/** A device whose readings the test sets; a driver error or a missing management library on command. */
final class FakeDevice implements GpuDevice {

    volatile MemoryInfo memory = new MemoryInfo(6L << 30, 16L << 30);
    volatile DeviceTelemetry telemetry = new DeviceTelemetry(10L << 30, 16L << 30, 75, 61.5, 180.25);
    volatile AllocatorStats allocator = new AllocatorStats(1L << 30, 64L << 20, 5, 50);
    volatile RuntimeException driverError;

    private final String id;

    FakeDevice(String id) {
        this.id = id;
    }

    GpuDevices asDevices() {
        FakeDevice self = this;
        return new GpuDevices() {
            @Override
            public List<GpuDevice> devices() {
                return List.of(self);
            }

            @Override
            public List<String> statuses() {
                return List.of("fake: available");
            }
        };
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String name() {
        return "Fake " + id;
    }

    @Override
    public MemoryInfo memoryInfo() {
        if (driverError != null) {
            throw driverError;
        }
        return memory;
    }

    @Override
    public Optional<DeviceTelemetry> telemetry() {
        return Optional.ofNullable(telemetry);
    }

    @Override
    public AllocatorStats allocatorStats() {
        return allocator;
    }

    @Override
    public int streamsLeased() {
        return 2;
    }

    @Override
    public int streamCapacity() {
        return 4;
    }
}
