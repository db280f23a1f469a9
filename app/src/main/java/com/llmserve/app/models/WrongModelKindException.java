package com.llmserve.app.models;

import com.llmserve.engine.model.ModelKind;

/** The model exists but serves another endpoint (an embedding model asked for a completion, say). */
public final class WrongModelKindException extends RuntimeException {

    public WrongModelKindException(String modelId, ModelKind actual, ModelKind wanted) {
        super("The model '" + modelId + "' is " + (actual == ModelKind.EMBEDDING ? "an embedding" : "a completion")
                + " model; this endpoint needs " + (wanted == ModelKind.EMBEDDING ? "an embedding" : "a completion")
                + " model");
    }
}
