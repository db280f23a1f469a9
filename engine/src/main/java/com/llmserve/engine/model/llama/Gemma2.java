package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Glu;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufMetadata;

/**
 * Gemma 2: gemma3's layers without the q/k norms, with its attention scores soft-capped
 * ({@code attn_logit_softcapping}, 50 in Google's files) and its final logits too
 * ({@code final_logit_softcapping}, 30); local and global layers alternate ({@code
 * sliding_window_pattern} 2), both with the model's rope base.
 */
public final class Gemma2 extends DecoderArchitecture {

    /** llama.cpp's default for files that leave the key out. */
    private static final int DEFAULT_WINDOW_PATTERN = 2;

    @Override
    public String name() {
        return "gemma2";
    }

    @Override
    DecoderConfig config(GgufFile file) {
        GgufMetadata m = file.metadata();
        int width = m.getInt("gemma2.embedding_length");
        int layers = m.getInt("gemma2.block_count");
        int heads = m.getInt("gemma2.attention.head_count");
        // Gemma 2 27B scales queries by its width per head, not its head size (gemma_pytorch's config)
        float attentionScale = layers == 46 && heads > 0 ? (float) (1.0 / Math.sqrt((double) (width / heads))) : 0f;
        Variant gemma = new Variant(
                (float) Math.sqrt(width),
                Glu.GELU,
                m.findInt("gemma2.attention.sliding_window_pattern").orElse(DEFAULT_WINDOW_PATTERN),
                m.findFloat("gemma2.rope.freq_base_swa").orElse(0f),
                attentionScale,
                m.findFloat("gemma2.final_logit_softcapping").orElse(0f),
                m.findFloat("gemma2.attn_logit_softcapping").orElse(0f),
                null);
        return DecoderConfig.read(file.path(), m, "gemma2", Rope.Style.NEOX, "gemma2.attention.sliding_window", gemma);
    }
}
