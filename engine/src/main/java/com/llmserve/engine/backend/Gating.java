package com.llmserve.engine.backend;

/** How {@link Backend#routeExperts} turns a token's router logits into expert weights (llama.cpp's gating functions). */
public enum Gating {
    /**
     * {@code LLAMA_EXPERT_GATING_FUNC_TYPE_SOFTMAX} with the weights normalized (Mixtral, qwen3moe):
     * the softmax over every expert, the most likely chosen, their probabilities divided by their sum.
     */
    SOFTMAX,
    /**
     * {@code LLAMA_EXPERT_GATING_FUNC_TYPE_SOFTMAX_WEIGHT} (gpt-oss): the experts of the largest
     * logits chosen, their weights the softmax over the chosen logits only.
     */
    SOFTMAX_OF_TOP_K
}
