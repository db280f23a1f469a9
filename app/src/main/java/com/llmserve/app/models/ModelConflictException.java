package com.llmserve.app.models;

/** A model cannot be added under an id that another model already has. */
public final class ModelConflictException extends RuntimeException {

    private final String modelId;

    public ModelConflictException(String modelId) {
        super("A model with the id '" + modelId + "' is already served or loading; remove it first");
        this.modelId = modelId;
    }

    public String modelId() {
        return modelId;
    }
}
