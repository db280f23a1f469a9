package com.llmserve.gpu;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps freed device blocks for reuse so the decode loop never reaches the driver's malloc/free
 * (both synchronise the device on CUDA). Sizes are rounded into bins — powers of two up to 1 MiB,
 * 2 MiB multiples above — and a block is reused only for the same rounded size.
 *
 * <p>Stream safety: a block freed from a stream-scoped buffer may still be read by work queued
 * on that stream. It is reused at once by the same stream (stream order protects it); for any
 * other stream, or an unscoped buffer, only after an event recorded at free time has completed.
 * Unscoped buffers ({@link Device#allocate}) promise the caller has finished with them at close.
 *
 * <p>On an out-of-memory status the cache is emptied (waiting on its events) and the allocation
 * retried once before the error reaches the caller.
 */
final class CachingAllocator {

    static final long SMALL_LIMIT = 1L << 20;
    static final long MIN_BLOCK = 512;
    static final long LARGE_GRANULE = 2L << 20;

    private static final System.Logger LOG = System.getLogger(CachingAllocator.class.getName());

    /** A cached block; {@code event} is 0 when no work can still be pending on it. */
    private record Block(long pointer, long size, Stream stream, long event) {}

    private final Device device;
    private final DeviceMemory memory;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Long, ArrayDeque<Block>> cached = new HashMap<>();
    private final ArrayDeque<Long> idleEvents = new ArrayDeque<>();
    private long bytesInUse;
    private long bytesCached;
    private long driverAllocations;
    private long cacheHits;
    private boolean closed;

    CachingAllocator(Device device, DeviceMemory memory) {
        this.device = device;
        this.memory = memory;
    }

    static long roundUp(long bytes) {
        if (bytes <= 0) throw new IllegalArgumentException("allocation size must be positive: " + bytes);
        if (bytes <= SMALL_LIMIT) return Math.max(MIN_BLOCK, Long.highestOneBit(bytes - 1) << 1);
        return (bytes + LARGE_GRANULE - 1) / LARGE_GRANULE * LARGE_GRANULE;
    }

    DeviceBuffer allocate(long bytes, Stream stream) {
        long size = roundUp(bytes);
        lock.lock();
        try {
            if (closed) throw new IllegalStateException("device " + device + " is closed");
            Block block = takeReusable(size, stream);
            long pointer;
            if (block != null) {
                cacheHits++;
                bytesCached -= size;
                if (block.event != 0) idleEvents.push(block.event);
                pointer = block.pointer;
            } else {
                pointer = mallocOrTrimAndRetry(size);
                driverAllocations++;
            }
            bytesInUse += size;
            return new DeviceBuffer(this, device, pointer, bytes, size, stream);
        } finally {
            lock.unlock();
        }
    }

    void release(DeviceBuffer buffer) {
        lock.lock();
        try {
            bytesInUse -= buffer.capacity();
            if (closed) return; // the device already freed everything
            long event = 0;
            if (buffer.stream() != null) {
                event = idleEvents.isEmpty() ? memory.createEvent() : idleEvents.pop();
                memory.recordEvent(event, buffer.stream().handle());
            }
            cached.computeIfAbsent(buffer.capacity(), s -> new ArrayDeque<>())
                    .addLast(new Block(buffer.address(), buffer.capacity(), buffer.stream(), event));
            bytesCached += buffer.capacity();
        } finally {
            lock.unlock();
        }
    }

    AllocatorStats stats() {
        lock.lock();
        try {
            return new AllocatorStats(bytesInUse, bytesCached, driverAllocations, cacheHits);
        } finally {
            lock.unlock();
        }
    }

    void trim() {
        lock.lock();
        try {
            freeCached();
        } finally {
            lock.unlock();
        }
    }

    /** Frees the cache and the idle events; buffers still open are reported, and freed with the context. */
    void close() {
        lock.lock();
        try {
            if (closed) return;
            freeCached();
            while (!idleEvents.isEmpty()) memory.destroyEvent(idleEvents.pop());
            if (bytesInUse > 0) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "{0}: {1} bytes of device buffers still open at close; the context release frees them",
                        device,
                        bytesInUse);
            }
            closed = true;
        } finally {
            lock.unlock();
        }
    }

    private Block takeReusable(long size, Stream stream) {
        ArrayDeque<Block> bin = cached.get(size);
        if (bin == null) return null;
        for (Iterator<Block> it = bin.iterator(); it.hasNext(); ) {
            Block b = it.next();
            if (b.event == 0 || (stream != null && b.stream == stream) || memory.eventDone(b.event)) {
                it.remove();
                return b;
            }
        }
        return null;
    }

    private long mallocOrTrimAndRetry(long size) {
        try {
            return memory.malloc(size);
        } catch (GpuCallException e) {
            if (!e.isOutOfMemory() || bytesCached == 0) throw e;
            LOG.log(
                    System.Logger.Level.INFO,
                    "{0}: out of memory for {1} bytes, freeing {2} cached bytes and retrying",
                    device,
                    size,
                    bytesCached);
            freeCached();
            return memory.malloc(size);
        }
    }

    private void freeCached() {
        for (ArrayDeque<Block> bin : cached.values()) {
            for (Block b : bin) {
                if (b.event != 0) {
                    memory.synchronizeEvent(b.event);
                    idleEvents.push(b.event);
                }
                memory.free(b.pointer);
            }
        }
        cached.clear();
        bytesCached = 0;
    }
}
