package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Glu;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufMetadata;

/**
 * What Gemma 2 and 3 share: embeddings scaled by {@code sqrt(n_embd)}, GeGLU, NeoX rope, local
 * layers by {@code sliding_window_pattern} with their own rope base, the largest model's query scale
 * by its width per head (gemma_pytorch's config), and soft-capped final logits and attention scores
 * where the file sets them.
 */
final class GemmaFamily {

    private GemmaFamily() {}

    /**
     * @param largeModelLayers the block count of the member's 27B, which scales queries by
     *                         {@code 1/sqrt(n_embd/n_head)} instead of {@code 1/sqrt(head_dim)}
     * @param windowPattern    llama.cpp's default {@code sliding_window_pattern}
     * @param windowRopeBase   llama.cpp's default {@code rope.freq_base_swa}, 0 for the model's
     */
    static DecoderConfig config(
            GgufFile file, String prefix, int largeModelLayers, int windowPattern, float windowRopeBase) {
        GgufMetadata m = file.metadata();
        int width = m.getInt(prefix + ".embedding_length");
        int layers = m.getInt(prefix + ".block_count");
        int heads = m.getInt(prefix + ".attention.head_count");
        float attentionScale =
                layers == largeModelLayers && heads > 0 ? (float) (1.0 / Math.sqrt((double) (width / heads))) : 0f;
        Variant gemma = new Variant(
                (float) Math.sqrt(width),
                Glu.GELU,
                m.findInt(prefix + ".attention.sliding_window_pattern").orElse(windowPattern),
                m.findFloat(prefix + ".rope.freq_base_swa").orElse(windowRopeBase),
                attentionScale,
                m.findFloat(prefix + ".final_logit_softcapping").orElse(0f),
                m.findFloat(prefix + ".attn_logit_softcapping").orElse(0f),
                Variant.FFN_NORM,
                null);
        return DecoderConfig.read(file.path(), m, prefix, Rope.Style.NEOX, prefix + ".attention.sliding_window", gemma);
    }
}
