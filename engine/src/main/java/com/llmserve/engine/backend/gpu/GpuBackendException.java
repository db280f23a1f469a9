package com.llmserve.engine.backend.gpu;

/**
 * A model or batch the GPU backend cannot run: a shape its kernels do not cover, a handle from
 * another backend, an interrupted stream lease. Vendor failures arrive as the runtime's own
 * {@code GpuException}s.
 */
public final class GpuBackendException extends RuntimeException {

    GpuBackendException(String message) {
        super(message);
    }

    GpuBackendException(String message, Throwable cause) {
        super(message, cause);
    }
}
