package com.llmserve.app.gpu;

/**
 * A model replica placed on a GPU, as the device's health sees it: whether the device's trouble
 * leaves the model unserved, and what to do when the device's context is lost.
 */
public interface DeviceUser {

    /** The model's id. */
    String model();

    /** Its circuit breaker's state, as resilience4j names it ({@code CLOSED}, {@code OPEN}, ...). */
    String breakerState();

    /** Whether a CPU copy serves the model while the device cannot. */
    boolean hasFallback();

    /** Whether new requests for the model are refused now: the device is shut off and no CPU copy serves. */
    boolean blocked();

    /** The device's context is lost: stop sending it work (nothing sent to it can succeed again). */
    void deviceLost(String reason);
}
