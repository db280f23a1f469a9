package com.llmserve.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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

    /** Every llama-family model in {@code ../shared/models}: each file type, tokenizer and shape the tests cover. */
    public static List<String> llamaFamilyModels() {
        return List.of(
                "stories260K.gguf",
                "stories260K-q8_0.gguf",
                "stories260K-q4_0.gguf",
                "llama-2-tiny-random.gguf",
                "tiny-F16.gguf",
                "tiny-Q8_0.gguf",
                "tiny-Q6_K.gguf",
                "tiny-Q5_K_M.gguf",
                "tiny-Q5_1.gguf",
                "tiny-Q5_0.gguf",
                "tiny-Q4_K_M.gguf",
                "tiny-Q4_1.gguf",
                "tiny-Q4_0.gguf",
                "tiny-Q3_K_M.gguf",
                "tiny-Q2_K.gguf");
    }

    public static Path golden(String relative) {
        return shared().resolve("golden").resolve(relative);
    }
}
