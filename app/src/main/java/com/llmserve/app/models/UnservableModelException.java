package com.llmserve.app.models;

import java.nio.file.Path;

/**
 * A file that cannot be served: missing, not a GGUF file, truncated, of an architecture the engine
 * does not implement, or outside the folder the admin endpoint may load from.
 */
public final class UnservableModelException extends RuntimeException {

    private final transient Path file;
    private final transient FileStamp stamp;

    /**
     * @param stamp the file as it was when it was judged, null when it could not be read
     */
    public UnservableModelException(Path file, FileStamp stamp, String reason) {
        super(reason);
        this.file = file;
        this.stamp = stamp;
    }

    public Path file() {
        return file;
    }

    /** The file as it was when it was judged, null when it could not be read. */
    public FileStamp stamp() {
        return stamp;
    }

    /** The file as a skipped file of the folder, under the id it would have had. */
    SkippedFile skipped(String id) {
        return new SkippedFile(file, id, getMessage(), stamp);
    }
}
