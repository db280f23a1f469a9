package com.llmserve.gpu;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A block of device memory from the device's caching allocator. {@link #close()} gives it back
 * to the cache (see {@link CachingAllocator} for when it may be reused).
 */
public final class DeviceBuffer implements AutoCloseable {

    private final CachingAllocator owner;
    private final Device device;
    private final long address;
    private final long byteSize;
    private final long capacity;
    private final Stream stream;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final LeakAlarm leakAlarm;

    DeviceBuffer(CachingAllocator owner, Device device, long address, long byteSize, long capacity, Stream stream) {
        this.owner = owner;
        this.device = device;
        this.address = address;
        this.byteSize = byteSize;
        this.capacity = capacity;
        this.stream = stream;
        this.leakAlarm = new LeakAlarm(this, "DeviceBuffer of " + byteSize + " bytes on " + device);
    }

    /** The device address, as kernels and BLAS see it. */
    public long address() {
        return address;
    }

    /** The size asked for; the block behind it may be larger. */
    public long byteSize() {
        return byteSize;
    }

    public Device device() {
        return device;
    }

    long capacity() {
        return capacity;
    }

    /** The stream this buffer is scoped to, or null for a device-wide buffer. */
    Stream stream() {
        return stream;
    }

    void checkRange(long offset, long bytes) {
        if (closed.get()) throw new IllegalStateException("buffer is closed");
        if (offset < 0 || bytes < 0 || offset + bytes > byteSize) {
            throw new IndexOutOfBoundsException(
                    "range [" + offset + ", " + (offset + bytes) + ") outside buffer of " + byteSize + " bytes");
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            leakAlarm.disarm();
            owner.release(this);
        }
    }
}
