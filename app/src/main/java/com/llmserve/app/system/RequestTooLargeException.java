package com.llmserve.app.system;

import java.io.IOException;

/** A request body beyond {@code llmserve.api.max-request-size}: answered 413. */
public final class RequestTooLargeException extends IOException {

    public RequestTooLargeException(long limit) {
        super("The request body is larger than the limit of " + limit + " bytes.");
    }
}
