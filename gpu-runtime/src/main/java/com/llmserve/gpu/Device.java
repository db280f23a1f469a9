package com.llmserve.gpu;

import com.llmserve.gpu.spi.DeviceDriver;
import com.llmserve.kernels.Kernel;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One GPU, opened by the {@link DevicePool}, which owns it. Everything a device hands out —
 * streams (leased), buffers, events, modules — belongs to it and is released by
 * {@link #close()} at the latest.
 */
public final class Device {

    private final DeviceDriver driver;
    private final DeviceInfo info;
    private final DeviceOptions options;
    private final CachingAllocator allocator;
    private final StreamPool streams;
    private final ModuleCache modules;
    private final AtomicBoolean closed = new AtomicBoolean();

    Device(DeviceDriver driver, CodeObjectCatalog catalog, DeviceOptions options) {
        this.driver = driver;
        this.info = driver.info();
        this.options = options;
        this.allocator = new CachingAllocator(this, new DriverMemory(driver));
        this.streams = new StreamPool(this, options);
        this.modules = new ModuleCache(this, catalog);
    }

    public DeviceInfo info() {
        return info;
    }

    /** The per-device stream pool: {@code try (var lease = device.streams().lease()) { ... }}. */
    public StreamPool streams() {
        return streams;
    }

    /** Loaded code objects and their functions, loaded on first use and once only. */
    public ModuleCache modules() {
        return modules;
    }

    /** Shortcut for {@code modules().function(kernel)}. */
    public KernelFunction function(Kernel kernel) {
        return modules.function(kernel);
    }

    /**
     * Device memory from the caching allocator, not tied to a stream (weights, KV cache): its
     * {@code close()} returns the block for immediate reuse, so close it only when no queued work
     * still reads or writes it. Stream-scoped scratch should use {@link Stream#allocate(long)}.
     */
    public DeviceBuffer allocate(long bytes) {
        return allocator.allocate(bytes, null);
    }

    /** Page-locked host memory for staging copies; closing it frees it. */
    public PinnedBuffer allocatePinned(long bytes) {
        return new PinnedBuffer(this, driver.hostAlloc(bytes));
    }

    /** An event for timing or cross-stream ordering; the caller closes it. */
    public Event createEvent() {
        return new Event(this, driver.createEvent(true));
    }

    public MemoryInfo memoryInfo() {
        return driver.memoryInfo();
    }

    /** Counters of the caching allocator (for the {@code llm.gpu.memory.*} meters). */
    public AllocatorStats allocatorStats() {
        return allocator.stats();
    }

    /** Frees every cached, unused block back to the driver. */
    public void trimMemory() {
        allocator.trim();
    }

    /** A reading from NVML or rocm-smi, when that library is installed. */
    public Optional<DeviceTelemetry> telemetry() {
        return driver.telemetry();
    }

    /** Waits for all work on the device (every stream). */
    public void synchronize() {
        driver.synchronize();
    }

    public DeviceOptions options() {
        return options;
    }

    DeviceDriver driver() {
        return driver;
    }

    CachingAllocator allocator() {
        return allocator;
    }

    /**
     * Waits for the device, then releases streams (and their handles), modules, memory and the
     * context, in that order. Every step runs even if an earlier one failed (a device in a sticky
     * error state still has to give its context back); the first failure is rethrown with the
     * others suppressed.
     */
    void close() {
        if (!closed.compareAndSet(false, true)) return;
        RuntimeException failure = null;
        for (Runnable step :
                new Runnable[] {driver::synchronize, streams::close, modules::close, allocator::close, driver::close}) {
            try {
                step.run();
            } catch (RuntimeException e) {
                if (failure == null) failure = e;
                else failure.addSuppressed(e);
            }
        }
        if (failure != null) throw failure;
    }

    @Override
    public String toString() {
        return info.vendor() + " device " + info.ordinal() + " (" + info.name() + ", " + info.arch() + ")";
    }
}
