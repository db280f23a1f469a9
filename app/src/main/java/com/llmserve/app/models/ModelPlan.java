package com.llmserve.app.models;

import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.model.ModelKind;
import java.nio.file.Path;
import java.time.Instant;

/**
 * A model the service will serve, decided before anything loads: where it comes from, what it
 * answers and where it runs.
 *
 * @param id           the name clients use
 * @param path         the GGUF file
 * @param kind         the endpoints it answers
 * @param architecture {@code general.architecture} of the file
 * @param backend      where it runs
 * @param fileSize     bytes of the file
 * @param modified     the file's modification time when it was planned (what {@code /v1/models} calls created)
 * @param configured   listed in {@code llmserve.models} (a failure there is the operator's to fix, so
 *                     it marks the service down); false for files found in the models folder or added
 *                     through the admin endpoint
 * @param spec         the configuration entry or the admin request's options, null for a file of the folder
 */
public record ModelPlan(
        String id,
        Path path,
        ModelKind kind,
        String architecture,
        BackendChoice backend,
        long fileSize,
        Instant modified,
        boolean configured,
        ServingProperties.ModelSpec spec) {

    /** The kind as the API and health details spell it: {@code completion} or {@code embedding}. */
    public String kindName() {
        return kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The file as it was when planned. */
    public FileStamp stamp() {
        return new FileStamp(fileSize, modified);
    }

    /** The per-model context limit, 0 for the model's own. */
    public int contextSize() {
        return spec == null ? 0 : spec.contextSize();
    }
}
