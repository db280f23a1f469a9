package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.gguf.GgufFile;

/**
 * Files written with {@code general.architecture = mistral}: llama layers whose attention may be
 * limited to a sliding window of recent positions ({@code mistral.attention.sliding_window}).
 */
public final class Mistral extends DecoderArchitecture {

    @Override
    public String name() {
        return "mistral";
    }

    @Override
    DecoderConfig config(GgufFile file) {
        return DecoderConfig.read(
                file.path(), file.metadata(), "mistral", Rope.Style.NORMAL, "mistral.attention.sliding_window");
    }
}
