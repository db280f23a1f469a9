package com.llmserve.engine.backend;

import com.llmserve.engine.gguf.GgmlType;

/** A weight owned by a backend: a matrix of {@code rows x cols} or a vector ({@code rows == 1}). */
public interface Weight {

    String name();

    GgmlType type();

    long rows();

    int cols();
}
