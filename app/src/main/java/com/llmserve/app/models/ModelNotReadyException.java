package com.llmserve.app.models;

/** The model is served but cannot answer now: it is still loading, or its load failed. */
public final class ModelNotReadyException extends RuntimeException {

    private final boolean loading;

    public ModelNotReadyException(String message, boolean loading) {
        super(message);
        this.loading = loading;
    }

    /** True while the model loads (retrying later helps); false when its load failed. */
    public boolean loading() {
        return loading;
    }
}
