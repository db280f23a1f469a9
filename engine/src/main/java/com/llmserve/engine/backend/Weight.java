package com.llmserve.engine.backend;

import com.llmserve.engine.gguf.GgmlType;

/**
 * A weight owned by a backend: a matrix of {@code rows x cols} or a vector ({@code rows == 1}).
 * Closing it frees what the backend made for it (a packed copy, device memory); the model that
 * uploaded it closes it.
 */
public interface Weight extends AutoCloseable {

    String name();

    GgmlType type();

    long rows();

    int cols();

    @Override
    void close();
}
