package com.llmserve.engine.model.bert;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.EmbeddingModel;
import com.llmserve.engine.model.ModelOptions;

/**
 * BERT encoders as llama.cpp's converter writes them ({@code general.architecture = bert}):
 * sentence-transformers models such as all-MiniLM, BGE, E5 and GTE. The pooling comes from the
 * file ({@code bert.pooling_type}).
 */
public final class Bert {

    /** The {@code general.architecture} value this class reads. */
    public static final String NAME = BertConfig.PREFIX;

    private Bert() {}

    public static EmbeddingModel load(GgufFile file, Backend backend, ModelOptions options) {
        BertConfig config = BertConfig.read(file.path(), file.metadata());
        BertModel.contextLength(config, options); // refuse a bad option before any weight is uploaded
        return new BertModel(config, BertWeights.load(file, config, backend), backend, options);
    }
}
