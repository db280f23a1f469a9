package com.llmserve.engine.gguf;

import java.nio.file.Path;

/**
 * The one exception a GGUF file that cannot be used raises: bad magic, unsupported version,
 * truncated data, absurd counts or lengths, tensors outside the file or overlapping, a metadata
 * value of the wrong type. The message names the file and, where it applies, the byte offset,
 * the key or the tensor.
 */
public final class GgufFormatException extends RuntimeException {

    private final transient Path file;

    public GgufFormatException(Path file, String message) {
        super(file + ": " + message);
        this.file = file;
    }

    public GgufFormatException(Path file, String message, Throwable cause) {
        super(file + ": " + message, cause);
        this.file = file;
    }

    /** The file that failed, or {@code null} when the data did not come from a file. */
    public Path file() {
        return file;
    }
}
