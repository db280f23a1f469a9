package com.llmserve.gpu;

import com.llmserve.gpu.spi.DeviceDriver;
import com.llmserve.kernels.Kernel;
import java.util.Objects;
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

    /**
     * Whether kernels on this device can read and write {@code peer}'s memory directly (NVLink,
     * XGMI or PCIe peer-to-peer), through the peer's own device pointers: one process's devices share
     * one virtual address space (unified virtual addressing). False for this device itself and for a
     * device of another runtime (a CUDA device and a HIP one, even over the same GPU).
     */
    public boolean canAccessPeer(Device peer) {
        Objects.requireNonNull(peer, "peer");
        return peer != this && driver.canAccessPeer(peer.driver);
    }

    /**
     * Lets this device's kernels access {@code peer}'s allocations, present and future, by their
     * {@link DeviceBuffer#address() addresses} (a custom all-reduce reading and writing the other
     * GPUs' buffers). One direction only: for kernels on each side to reach the other's memory,
     * enable it on both. Idempotent: access already enabled is left as it is. Access lasts while
     * both devices are open.
     *
     * @throws IllegalArgumentException when this device cannot access {@code peer} ({@link #canAccessPeer})
     */
    public void enablePeerAccess(Device peer) {
        if (!canAccessPeer(peer)) {
            throw new IllegalArgumentException(
                    peer == this
                            ? this + " cannot enable peer access to itself: a device is not its own peer"
                            : this + " cannot access the memory of " + peer
                                    + ": the driver reports no peer-to-peer path between them (or they belong to"
                                    + " different runtimes)");
        }
        driver.enablePeerAccess(peer.driver);
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
