package com.llmserve.gpu;

/**
 * Everything the GPU runtime throws. Callers catch this, mark the device unhealthy and answer
 * 503; the runtime never ends the process.
 */
public sealed class GpuException extends RuntimeException
        permits GpuCallException, MissingKernelException, GpuUnavailableException {

    protected GpuException(String message) {
        super(message);
    }

    protected GpuException(String message, Throwable cause) {
        super(message, cause);
    }
}
