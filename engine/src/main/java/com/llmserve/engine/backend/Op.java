package com.llmserve.engine.backend;

/** Operations whose support depends on the weight type, for {@link Backend#supports}. */
public enum Op {
    /** Row gather from an embedding table. */
    EMBED,
    /** Matrix times activations. */
    MATMUL
}
