package com.llmserve.engine.backend;

/** The activation on the gate half of a gated feed-forward ({@link Backend#glu}). */
public enum Glu {
    /** SwiGLU: {@code silu(gate) * up}, the llama family's. */
    SILU,
    /** GeGLU: {@code gelu(gate) * up} with GELU's tanh form (as {@link Unary#GELU}), gemma's. */
    GELU
}
