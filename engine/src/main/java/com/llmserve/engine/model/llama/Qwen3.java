package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.gguf.GgufFile;

/**
 * Qwen3 (dense): qwen2's layers without the attention biases, with an RMS norm over each query
 * and key head before rope ({@code attn_q_norm}/{@code attn_k_norm}, found by tensor name).
 */
public final class Qwen3 extends DecoderArchitecture {

    @Override
    public String name() {
        return "qwen3";
    }

    @Override
    DecoderConfig config(GgufFile file) {
        return DecoderConfig.read(file.path(), file.metadata(), "qwen3", Rope.Style.NEOX, null);
    }
}
