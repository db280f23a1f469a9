package com.llmserve.gpu;

/** A vendor library or one of its symbols could not be loaded, so the call cannot be made. */
public final class GpuUnavailableException extends GpuException {

    public GpuUnavailableException(String message) {
        super(message);
    }

    public GpuUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
