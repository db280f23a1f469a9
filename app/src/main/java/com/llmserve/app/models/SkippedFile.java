package com.llmserve.app.models;

import java.nio.file.Path;

/**
 * A file of the models folder that is not served, and why: it is not a GGUF file, is truncated,
 * has an architecture the engine does not implement, or its id is taken. Shown in the health
 * details and in {@code /v1/models}, so that a model that does not appear can be explained
 * without the log.
 *
 * @param file   the file
 * @param id     the id it would have had
 * @param reason why it is not served
 * @param stamp  the file as it was read; it is read again once it changes
 */
public record SkippedFile(Path file, String id, String reason, FileStamp stamp) {}
