package com.llmserve.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The small models of {@code ../shared/models} that tests serve: a folder holding links to just
 * those, so a test server loads two tiny models instead of the whole folder.
 */
public final class TestModels {

    /** The text model: stories260K (llama, 512-token SentencePiece vocabulary, no chat template). */
    public static final String TEXT = "stories260K";
    /** The embedding model: all-MiniLM-L6-v2 Q8_0 (bert, 384 dimensions, mean pooling). */
    public static final String EMBEDDING = "all-MiniLM-L6-v2-q8_0";
    /** The folder integration tests serve, relative to the module (surefire's working directory). */
    public static final String DIR = "target/test-models";

    private TestModels() {}

    public static Path shared() {
        String configured = System.getProperty("llmserve.shared.dir");
        Path p = configured != null ? Path.of(configured) : Path.of("..", "..", "shared");
        if (!Files.isDirectory(p)) {
            throw new IllegalStateException(
                    "test data folder " + p.toAbsolutePath().normalize()
                            + " not found: clone the repository next to ../shared or set -Dllmserve.shared.dir");
        }
        return p.toAbsolutePath().normalize();
    }

    public static Path file(String id) {
        return shared().resolve("models").resolve(id + ".gguf");
    }

    /** Creates {@link #DIR} with links to the test models (idempotent). */
    public static Path folder() {
        Path dir = Path.of(DIR).toAbsolutePath();
        try {
            Files.createDirectories(dir);
            for (String id : new String[] {TEXT, EMBEDDING}) {
                Path link = dir.resolve(id + ".gguf");
                if (!Files.exists(link)) {
                    Files.deleteIfExists(link);
                    Files.createSymbolicLink(link, file(id));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }
}
