package com.llmserve.app.models;

/** An embedding request the service could not complete: a failure on the server's side, not the client's. */
public final class EmbeddingFailedException extends RuntimeException {

    /** Why it failed. */
    public enum Reason {
        /** It waited and ran longer than the embedding timeout. */
        TIMEOUT,
        /** The service is shutting down. */
        SHUTTING_DOWN,
        /** The model failed. */
        ENGINE_ERROR
    }

    private final Reason reason;

    public EmbeddingFailedException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
