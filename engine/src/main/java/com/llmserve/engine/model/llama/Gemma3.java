package com.llmserve.engine.model.llama;

import com.llmserve.engine.gguf.GgufFile;

/**
 * Gemma 3 (text): gemma's layers ({@link GemmaFamily}) with per-head q/k norms and norms on each
 * sublayer's output before its residual add; {@code sliding_window_pattern} 6 is five local layers
 * then a global one, the local ones at {@code rope.freq_base_swa} (10000 by default). The converter
 * stores the norms' weights with gemma's {@code 1 +} folded in.
 */
public final class Gemma3 extends DecoderArchitecture {

    @Override
    public String name() {
        return "gemma3";
    }

    @Override
    DecoderConfig config(GgufFile file) {
        return GemmaFamily.config(file, "gemma3", 62, 6, 10_000f);
    }
}
