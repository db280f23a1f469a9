package com.llmserve.gpu;

/**
 * Caching-allocator counters of one device.
 *
 * @param bytesInUse bytes in live {@link DeviceBuffer}s (rounded sizes)
 * @param bytesCached bytes freed by callers but kept for reuse
 * @param driverAllocations calls that reached the driver's malloc
 * @param cacheHits allocations served from the cache
 */
public record AllocatorStats(long bytesInUse, long bytesCached, long driverAllocations, long cacheHits) {

    /** Everything the allocator holds from the driver. */
    public long bytesReserved() {
        return bytesInUse + bytesCached;
    }
}
