package com.llmserve.engine.backend;

/**
 * Operations that not every backend computes yet. A model that needs one is refused at load by a
 * backend without it ({@link Backend#capabilities()}), naming what is missing, rather than failing
 * in its first forward pass.
 */
public enum Capability {
    /** Per-head attention sinks in {@link Backend#attention} ({@link AttentionShape#sinks()}, gpt-oss). */
    ATTENTION_SINKS,
    /** {@link Glu#SWIGLU_OAI}, gpt-oss's clamped SwiGLU. */
    SWIGLU_OAI,
    /** {@link Backend#addExpertBias}: a bias per expert on its products (gpt-oss). */
    EXPERT_BIASES,
    /** {@link Gating#SOFTMAX_OF_TOP_K}: the experts chosen by logit, softmax over the chosen (gpt-oss). */
    SOFTMAX_OF_TOP_K
}
