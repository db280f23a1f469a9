package com.llmserve.app.models;

/** No model is served under this id. */
public final class ModelNotFoundException extends RuntimeException {

    private final String modelId;

    public ModelNotFoundException(String modelId) {
        super("The model '" + modelId + "' does not exist");
        this.modelId = modelId;
    }

    public String modelId() {
        return modelId;
    }
}
