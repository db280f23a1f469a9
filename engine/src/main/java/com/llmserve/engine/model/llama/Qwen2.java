package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.gguf.GgufFile;

/**
 * Qwen2 / Qwen2.5: llama layers with biases on the q, k and v projections (found by tensor name)
 * and NeoX-style rope, often with tied embeddings.
 */
public final class Qwen2 extends DecoderArchitecture {

    @Override
    public String name() {
        return "qwen2";
    }

    @Override
    DecoderConfig config(GgufFile file) {
        return DecoderConfig.read(file.path(), file.metadata(), "qwen2", Rope.Style.NEOX, null);
    }
}
