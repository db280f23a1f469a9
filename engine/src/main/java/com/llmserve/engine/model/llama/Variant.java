package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Glu;

/**
 * What sets a member of the llama family apart from llama's own layers, as data the shared
 * {@link DecoderModel} reads. Tensors that only some members have (q/k norms, post norms, biases)
 * are found by name instead.
 *
 * @param embeddingScale   factor on the token embeddings (gemma: {@code sqrt(n_embd)}), 1 for none
 * @param glu              the feed-forward's gate activation
 * @param windowPattern    with a sliding window: 0 when every layer is windowed, else layer {@code l}
 *                         is windowed when {@code l % windowPattern < windowPattern - 1} (llama.cpp's
 *                         {@code sliding_window_pattern}: gemma3's 6 is five local layers, one global)
 * @param windowRopeBase   rope theta of the windowed layers, 0 for the model's
 * @param attentionScale   factor on q·k, 0 for {@code 1 / sqrt(headDim)}
 * @param logitSoftcap     final logits become {@code c * tanh(logits / c)}, 0 for none
 * @param attentionSoftcap attention scores become {@code c * tanh(scores / c)}, 0 for none (gemma2)
 * @param ffnNorm          the per-block norm before the feed-forward ({@code ffn_norm}; gpt-oss
 *                         calls it {@code post_attention_norm}, which is then no post-sublayer norm)
 * @param experts          the mixture of experts replacing the dense feed-forward, or null
 */
record Variant(
        float embeddingScale,
        Glu glu,
        int windowPattern,
        float windowRopeBase,
        float attentionScale,
        float logitSoftcap,
        float attentionSoftcap,
        String ffnNorm,
        Experts experts) {

    static final String FFN_NORM = "ffn_norm";

    static final Variant LLAMA = new Variant(1f, Glu.SILU, 0, 0f, 0f, 0f, 0f, FFN_NORM, null);

    Variant withExperts(Experts e) {
        return new Variant(
                embeddingScale,
                glu,
                windowPattern,
                windowRopeBase,
                attentionScale,
                logitSoftcap,
                attentionSoftcap,
                ffnNorm,
                e);
    }
}
