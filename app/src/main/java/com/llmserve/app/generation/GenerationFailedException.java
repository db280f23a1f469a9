package com.llmserve.app.generation;

/** A generation that could not complete for a reason on the server's side. */
public final class GenerationFailedException extends RuntimeException {

    /** Why it ended. */
    public enum Reason {
        /** It outlived the request timeout. */
        TIMEOUT,
        /** The service is shutting down. */
        SHUTTING_DOWN,
        /** The backend failed while computing it. */
        ENGINE_ERROR
    }

    private final Reason reason;

    public GenerationFailedException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
