package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelOptions;

/**
 * One member of the llama family: how its GGUF metadata maps onto a {@link DecoderConfig}. The
 * layers themselves are shared ({@link DecoderModel}); a new member is a small class of its own.
 */
public abstract class DecoderArchitecture {

    /** The {@code general.architecture} value this class reads. */
    public abstract String name();

    abstract DecoderConfig config(GgufFile file);

    public final LanguageModel load(GgufFile file, Backend backend, ModelOptions options) {
        DecoderConfig config = config(file);
        return new DecoderModel(config, DecoderWeights.load(file, config, backend), backend, options);
    }
}
