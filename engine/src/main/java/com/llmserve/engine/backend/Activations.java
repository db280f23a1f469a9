package com.llmserve.engine.backend;

/** A backend-owned float32 matrix of {@code rows} (tokens) by {@code cols}, row-major; closing frees it. */
public interface Activations extends AutoCloseable {

    int rows();

    int cols();

    @Override
    void close();
}
