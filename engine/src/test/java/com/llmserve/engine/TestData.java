package com.llmserve.engine;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates {@code ../shared} (models, goldens, tokenizers) that CI places beside the checkout. */
public final class TestData {

    private TestData() {}

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

    public static Path model(String fileName) {
        return shared().resolve("models").resolve(fileName);
    }

    public static Path golden(String relative) {
        return shared().resolve("golden").resolve(relative);
    }
}
