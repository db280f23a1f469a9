package com.llmserve.gpu;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Page-locked host memory: copies from and to it are real DMA and overlap compute, unlike copies
 * from pageable memory, which the driver stages synchronously.
 */
public final class PinnedBuffer implements AutoCloseable {

    private final Device device;
    private final MemorySegment raw;
    private final Arena scope = Arena.ofShared();
    private final MemorySegment segment;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final LeakAlarm leakAlarm;

    PinnedBuffer(Device device, MemorySegment segment) {
        this.device = device;
        this.raw = segment;
        // Scoped to this buffer, so a stale reference fails on access instead of touching freed memory.
        this.segment = segment.reinterpret(scope, null);
        this.leakAlarm = new LeakAlarm(this, "PinnedBuffer of " + segment.byteSize() + " bytes for " + device);
    }

    /** The host memory; valid until {@link #close()}. */
    public MemorySegment segment() {
        return segment;
    }

    public long byteSize() {
        return segment.byteSize();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            leakAlarm.disarm();
            scope.close();
            device.driver().hostFree(raw);
        }
    }
}
