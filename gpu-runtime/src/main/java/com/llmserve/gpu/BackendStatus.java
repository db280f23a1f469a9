package com.llmserve.gpu;

/**
 * What discovery found for one backend, for logs and the health endpoint.
 *
 * @param backend {@code hip} or {@code cuda}
 * @param available true when its devices are in the pool
 * @param detail versions and device count when available, else the vendor's reason (e.g.
 *     {@code hipErrorNoDevice}, or that {@code libcuda.so.1} is not installed)
 */
public record BackendStatus(String backend, boolean available, String detail) {

    @Override
    public String toString() {
        return backend + ": " + (available ? "available, " : "unavailable, ") + detail;
    }
}
