package com.llmserve.engine.model;

/** What a model file serves, so the service knows which endpoints a loaded model answers. */
public enum ModelKind {
    /** Text generation ({@link LanguageModel}): completions and chat. */
    COMPLETION,
    /** Vectors for texts ({@link EmbeddingModel}): embeddings. */
    EMBEDDING
}
