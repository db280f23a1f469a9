package com.llmserve.app.system;

import java.io.IOException;

/** A request body that is not well-formed UTF-8: answered 400 {@code invalid_json}. */
public final class MalformedBodyException extends IOException {

    MalformedBodyException(long offset) {
        super("The request body is not valid UTF-8 (an ill-formed or overlong byte sequence at byte " + offset + ").");
    }
}
