package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Glu;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufMetadata;

/**
 * Gemma 3 (text): embeddings scaled by {@code sqrt(n_embd)}, per-head q/k norms, norms on each
 * sublayer's output before its residual add, GeGLU, and local layers (a sliding window, their own
 * rope base) interleaved with global ones: {@code sliding_window_pattern} 6 is five local layers
 * then a global one. The converter stores the norms' weights with gemma's {@code 1 +} folded in.
 */
public final class Gemma3 extends DecoderArchitecture {

    /** llama.cpp's defaults for files that leave the keys out. */
    private static final int DEFAULT_WINDOW_PATTERN = 6;

    private static final float DEFAULT_WINDOW_ROPE_BASE = 10_000f;

    @Override
    public String name() {
        return "gemma3";
    }

    @Override
    DecoderConfig config(GgufFile file) {
        GgufMetadata m = file.metadata();
        int width = m.getInt("gemma3.embedding_length");
        int layers = m.getInt("gemma3.block_count");
        int heads = m.getInt("gemma3.attention.head_count");
        // Gemma 3 27B scales queries by its width per head, not its head size (gemma_pytorch's config)
        float attentionScale = layers == 62 && heads > 0 ? (float) (1.0 / Math.sqrt((double) (width / heads))) : 0f;
        Variant gemma = new Variant(
                (float) Math.sqrt(width),
                Glu.GELU,
                m.findInt("gemma3.attention.sliding_window_pattern").orElse(DEFAULT_WINDOW_PATTERN),
                m.findFloat("gemma3.rope.freq_base_swa").orElse(DEFAULT_WINDOW_ROPE_BASE),
                attentionScale,
                m.findFloat("gemma3.final_logit_softcapping").orElse(0f),
                0f,
                null);
        return DecoderConfig.read(file.path(), m, "gemma3", Rope.Style.NEOX, "gemma3.attention.sliding_window", gemma);
    }
}
