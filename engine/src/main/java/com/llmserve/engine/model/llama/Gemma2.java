package com.llmserve.engine.model.llama;

import com.llmserve.engine.gguf.GgufFile;

/**
 * Gemma 2: gemma's layers ({@link GemmaFamily}) with post-sublayer norms but no q/k norms, its
 * attention scores soft-capped ({@code attn_logit_softcapping}, 50 in Google's files) and its final
 * logits too ({@code final_logit_softcapping}, 30); local and global layers alternate
 * ({@code sliding_window_pattern} 2), both at the model's rope base.
 */
public final class Gemma2 extends DecoderArchitecture {

    @Override
    public String name() {
        return "gemma2";
    }

    @Override
    DecoderConfig config(GgufFile file) {
        return GemmaFamily.config(file, "gemma2", 46, 2, 0f);
    }
}
