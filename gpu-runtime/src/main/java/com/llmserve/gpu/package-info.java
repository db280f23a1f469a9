/**
 * The GPU runtime's API, the only part of this module other modules use.
 *
 * <p>{@link com.llmserve.gpu.DevicePool} discovers devices (HIP, then CUDA, then none) and owns
 * them. A {@link com.llmserve.gpu.Device} hands out {@link com.llmserve.gpu.StreamLease}s from its
 * {@link com.llmserve.gpu.StreamPool}, device memory from a caching allocator
 * ({@link com.llmserve.gpu.DeviceBuffer}), pinned host memory, events, and kernel functions from a
 * per-device module cache. A {@link com.llmserve.gpu.Stream} launches kernels, copies, runs BLAS
 * ({@link com.llmserve.gpu.Blas}) and MIOpen ({@link com.llmserve.gpu.Dnn}) bound to it, and
 * captures graphs. Every native resource has one owner and is closed deterministically; vendor
 * failures are {@link com.llmserve.gpu.GpuException}s, never a process exit.
 */
package com.llmserve.gpu;
