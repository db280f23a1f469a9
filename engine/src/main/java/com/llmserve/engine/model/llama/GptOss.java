package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Capability;
import com.llmserve.engine.backend.Gating;
import com.llmserve.engine.backend.Glu;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufMetadata;
import com.llmserve.engine.model.InvalidModelException;
import java.util.EnumSet;
import java.util.Set;

/**
 * gpt-oss (llama.cpp's {@code LLM_ARCH_OPENAI_MOE}): biased q/k/v and output projections,
 * per-head attention sinks, windowed and global layers alternating
 * ({@code sliding_window_pattern} 2: even layers windowed) at one rope (NeoX, YaRN as the file
 * declares), the FFN's norm named {@code post_attention_norm}, and a mixture of experts in every
 * layer: a biased router, the experts of the largest logits weighted by the softmax over those
 * logits, biases per expert on gate, up and down, and the clamped SwiGLU
 * ({@link Glu#SWIGLU_OAI}). The experts are MXFP4 in OpenAI's files.
 */
public final class GptOss extends DecoderArchitecture {

    static final String NAME = "gpt-oss";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    DecoderConfig config(GgufFile file) {
        GgufMetadata m = file.metadata();
        Experts experts = Experts.read(file.path(), m, NAME, false);
        if (experts == null) {
            throw new InvalidModelException(file.path(), "gpt-oss needs gpt-oss.expert_count > 0");
        }
        float base = m.findFloat(NAME + ".rope.freq_base").orElse(10_000f);
        float windowBase = m.findFloat(NAME + ".rope.freq_base_swa").orElse(base);
        if (windowBase != base) {
            // llama.cpp would rotate the windowed layers at their base but with the model's YaRN scaling
            throw new InvalidModelException(
                    file.path(), "a rope base of its own for windowed layers (" + windowBase + ") is not supported");
        }
        Variant variant = new Variant(
                1f,
                Glu.SWIGLU_OAI,
                m.findInt(NAME + ".attention.sliding_window_pattern").orElse(2),
                0f,
                0f,
                0f,
                0f,
                "post_attention_norm",
                experts.withGating(Gating.SOFTMAX_OF_TOP_K));
        return DecoderConfig.read(file.path(), m, NAME, Rope.Style.NEOX, NAME + ".attention.sliding_window", variant);
    }

    @Override
    Set<Capability> needs(DecoderConfig config) {
        return EnumSet.allOf(Capability.class);
    }
}
