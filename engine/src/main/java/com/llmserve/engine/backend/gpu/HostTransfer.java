package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.Device;
import com.llmserve.gpu.DeviceBuffer;
import com.llmserve.gpu.PinnedBuffer;
import com.llmserve.gpu.Stream;
import com.llmserve.gpu.StreamLease;
import java.lang.foreign.MemorySegment;

/**
 * Synchronous copies between host memory (any: heap arrays included) and the device, staged
 * through one pinned buffer a chunk at a time, on a leased stream. For uploads and writes outside
 * a step's kernels; a step's own copies back go through {@link StepExecutor}.
 */
final class HostTransfer implements AutoCloseable {

    private final Device device;
    private final long chunkBytes;
    private PinnedBuffer staging;

    HostTransfer(Device device, long chunkBytes) {
        this.device = device;
        this.chunkBytes = chunkBytes;
    }

    /** Copies all of {@code src} to {@code dst} at {@code dstOffset}; returns when the copy is done. */
    void toDevice(MemorySegment src, DeviceBuffer dst, long dstOffset) {
        if (staging == null) {
            staging = device.allocatePinned(chunkBytes);
        }
        MemorySegment stage = staging.segment();
        try (StreamLease lease = lease(device)) {
            Stream s = lease.stream();
            for (long off = 0; off < src.byteSize(); off += stage.byteSize()) {
                long len = Math.min(stage.byteSize(), src.byteSize() - off);
                MemorySegment.copy(src, off, stage, 0, len);
                s.copyToDevice(stage.asSlice(0, len), dst, dstOffset + off);
                s.synchronize(); // the staging buffer is refilled next
            }
        }
    }

    /** A new device buffer holding the first {@code bytes} of {@code src}. */
    DeviceBuffer newBuffer(MemorySegment src, long bytes) {
        DeviceBuffer b = device.allocate(Math.max(bytes, 4));
        try {
            toDevice(src.asSlice(0, bytes), b, 0);
        } catch (RuntimeException e) {
            b.close();
            throw e;
        }
        return b;
    }

    /** Zeroes {@code b}; returns when done. */
    void zero(DeviceBuffer b) {
        zero(device, b);
    }

    /** Zeroes {@code b} of {@code device}; returns when done. */
    static void zero(Device device, DeviceBuffer b) {
        try (StreamLease lease = lease(device)) {
            lease.stream().fill(b, (byte) 0);
            lease.stream().synchronize();
        }
    }

    /** A stream of the device's pool; a thread interrupted while waiting for one gets a typed error. */
    static StreamLease lease(Device device) {
        try {
            return device.streams().lease();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GpuBackendException("interrupted waiting for a stream of " + device, e);
        }
    }

    @Override
    public void close() {
        if (staging != null) {
            staging.close();
            staging = null;
        }
    }
}
