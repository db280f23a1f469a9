package com.llmserve.app.resilience;

import java.time.Duration;

/**
 * A model's GPU is shut off by its circuit breaker and the model has no CPU copy: answered 503
 * with {@code Retry-After}, the time until the breaker next probes the device.
 */
public final class DeviceUnavailableException extends RuntimeException {

    private final Duration retryAfter;

    public DeviceUnavailableException(String model, String device, Duration retryAfter) {
        super("The model '" + model + "' is unavailable: its GPU (" + device
                + ") is failing and the model is too large to serve " + "on the CPU meanwhile. Retry later.");
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
