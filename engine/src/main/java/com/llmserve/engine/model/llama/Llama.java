package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.gguf.GgufFile;

/**
 * Llama 1/2/3 (and every model converted as {@code llama}: Mistral 7B, TinyLlama, SmolLM, ...).
 * llama.cpp's converter permutes q/k so that rope rotates adjacent pairs.
 */
public final class Llama extends DecoderArchitecture {

    @Override
    public String name() {
        return "llama";
    }

    @Override
    DecoderConfig config(GgufFile file) {
        return DecoderConfig.read(file.path(), file.metadata(), "llama", Rope.Style.NORMAL, null);
    }
}
