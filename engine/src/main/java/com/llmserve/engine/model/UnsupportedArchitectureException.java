package com.llmserve.engine.model;

import java.nio.file.Path;
import java.util.Collection;

/** {@code general.architecture} names a model family this engine does not implement. */
public final class UnsupportedArchitectureException extends RuntimeException {

    public UnsupportedArchitectureException(Path file, String architecture, Collection<String> supported) {
        super(file + ": unsupported architecture '" + architecture + "'; supported: " + String.join(", ", supported));
    }
}
