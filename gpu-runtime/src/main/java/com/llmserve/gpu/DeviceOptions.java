package com.llmserve.gpu;

/**
 * Per-device sizing.
 *
 * @param maxStreams streams a device's pool may create; a lease beyond that waits for a return
 * @param blasWorkspaceBytes workspace given to each BLAS handle, so GEMMs inside a captured graph
 *     never allocate (cuBLAS requires this for capture); 0 leaves the library's default
 */
public record DeviceOptions(int maxStreams, long blasWorkspaceBytes) {

    public DeviceOptions {
        if (maxStreams < 1) throw new IllegalArgumentException("maxStreams must be at least 1: " + maxStreams);
        if (blasWorkspaceBytes < 0) throw new IllegalArgumentException("blasWorkspaceBytes must not be negative");
    }

    /** 16 streams (more concurrent batches than a replica runs), 32 MiB BLAS workspace per stream. */
    public static DeviceOptions defaults() {
        return new DeviceOptions(16, 32L << 20);
    }
}
