package com.llmserve.engine.backend;

/** The activation on the gate half of a gated feed-forward ({@link Backend#glu}). */
public enum Glu {
    /** SwiGLU: {@code silu(gate) * up}, the llama family's. */
    SILU,
    /** GeGLU: {@code gelu(gate) * up} with GELU's tanh form (as {@link Unary#GELU}), gemma's. */
    GELU,
    /**
     * gpt-oss's SwiGLU ({@code ggml_swiglu_oai}, alpha {@value #OAI_ALPHA}, limit {@value #OAI_LIMIT}):
     * the gate {@code x = min(gate, limit)}, the up half {@code y = clamp(up, -limit, limit)}, and
     * {@code x * sigmoid(alpha * x) * (y + 1)}.
     */
    SWIGLU_OAI;

    /** gpt-oss's sigmoid slope, as llama.cpp's {@code build_moe_ffn} passes it. */
    public static final float OAI_ALPHA = 1.702f;

    /** gpt-oss's clamp of gate and up, as llama.cpp's {@code build_moe_ffn} passes it. */
    public static final float OAI_LIMIT = 7.0f;
}
