package com.llmserve.engine.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * llama.cpp's tokenizer test vectors: for every vocabulary GGUF that has {@code .inp}/{@code .out}
 * files, each of the 46 strings encodes (no BOS/EOS, no special-token parsing) to exactly the ids
 * that Hugging Face's tokenizer gave.
 */
class VocabTestVectorsTests {

    @TestFactory
    Stream<DynamicContainer> everyVocabularyReproducesItsVectors() throws IOException {
        List<Path> ggufs;
        try (Stream<Path> files = Files.list(VocabFixtures.vocabDir())) {
            ggufs = files.filter(p -> p.toString().endsWith(".gguf"))
                    .filter(p -> Files.exists(Path.of(p + ".inp")))
                    .sorted()
                    .toList();
        }
        assertThat(ggufs).hasSize(10);
        return ggufs.stream()
                .map(gguf -> DynamicContainer.dynamicContainer(
                        gguf.getFileName().toString(),
                        VocabFixtures.vectors(Path.of(gguf + ".inp")).stream()
                                .map(v -> DynamicTest.dynamicTest(v.toString(), () -> assertThat(
                                                VocabFixtures.load(gguf).encode(v.text(), false, false))
                                        .as("%s %s", gguf.getFileName(), v)
                                        .containsExactly(v.expected())))));
    }
}
