package com.llmserve.engine.backend;

/** A backend-owned float32 matrix of {@code rows} (tokens) by {@code cols}, row-major. */
public interface Activations {

    int rows();

    int cols();
}
