package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.gguf.GgufFile;

/**
 * Phi-3, Phi-3.5 and Phi-4 (dense): llama's block with q|k|v and gate|up stored fused
 * ({@code attn_qkv}, {@code ffn_up} of twice the feed-forward width), NeoX rope, and for the
 * long-context files "longrope": per-pair divisors, {@code rope_factors_long} when the served
 * context is longer than {@code rope.scaling.original_context_length}, else
 * {@code rope_factors_short}, with {@code rope.scaling.attn_factor} on cos and sin. Its sliding
 * window is ignored, as llama.cpp ignores it.
 */
public final class Phi3 extends DecoderArchitecture {

    @Override
    public String name() {
        return "phi3";
    }

    @Override
    DecoderConfig config(GgufFile file) {
        return DecoderConfig.read(file.path(), file.metadata(), "phi3", Rope.Style.NEOX, null);
    }
}
