package com.llmserve.app.models;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;

/**
 * What a file looked like when it was read: a change of either means it was written since. The
 * models folder's watcher reads a file once its stamp has stopped changing, and loads it again
 * when its stamp changes.
 *
 * @param size     bytes
 * @param modified the last modification time
 */
public record FileStamp(long size, Instant modified) {

    /** The stamp of {@code file} now, following links (the test folders link to shared models). */
    static FileStamp of(Path file) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        return new FileStamp(attributes.size(), attributes.lastModifiedTime().toInstant());
    }
}
