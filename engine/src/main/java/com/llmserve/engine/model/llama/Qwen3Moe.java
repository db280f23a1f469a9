package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.InvalidModelException;

/** Qwen3-MoE (30B-A3B, 235B-A22B): qwen3's attention, a mixture of experts in every layer. */
public final class Qwen3Moe extends DecoderArchitecture {

    @Override
    public String name() {
        return "qwen3moe";
    }

    @Override
    DecoderConfig config(GgufFile file) {
        Experts experts = Experts.read(file.path(), file.metadata(), "qwen3moe", true);
        if (experts == null) {
            throw new InvalidModelException(file.path(), "qwen3moe needs qwen3moe.expert_count > 0");
        }
        return DecoderConfig.read(
                file.path(), file.metadata(), "qwen3moe", Rope.Style.NEOX, null, Variant.LLAMA.withExperts(experts));
    }
}
