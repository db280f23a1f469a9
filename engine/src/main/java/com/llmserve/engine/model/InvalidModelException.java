package com.llmserve.engine.model;

import java.nio.file.Path;

/** A well-formed GGUF file whose model does not make sense: a tensor of the wrong shape, inconsistent hyper-parameters. */
public final class InvalidModelException extends RuntimeException {

    public InvalidModelException(Path file, String message) {
        super(file + ": " + message);
    }
}
