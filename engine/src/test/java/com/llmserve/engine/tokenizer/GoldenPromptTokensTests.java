package com.llmserve.engine.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The token ids llama-server evaluated for the golden prompts ({@code /tokenize} with
 * {@code add_special: true}), reproduced from each golden file's own model file.
 */
class GoldenPromptTokensTests {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> generationPromptsEncodeToThePromptTokensWithBos() throws IOException {
        return cases("generation", "prompt", "prompt_tokens");
    }

    @TestFactory
    Stream<DynamicTest> embeddingTextsEncodeToTheTokensWithClsAndSep() throws IOException {
        return cases("embeddings", "text", "tokens");
    }

    @TestFactory
    Stream<DynamicTest> embeddingTokensShowTheGoldenPieces() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path file : goldenFiles("embeddings")) {
            JsonNode golden = JSON.readTree(file.toFile());
            Tokenizer tokenizer = VocabFixtures.model(golden.get("model").asString());
            for (JsonNode c : golden.get("cases")) {
                tests.add(DynamicTest.dynamicTest(
                        file.getFileName() + " " + c.get("text").asString(), () -> {
                            List<String> pieces = new ArrayList<>();
                            for (JsonNode id : c.get("tokens")) {
                                // llama-server's pieces are the vocabulary text with U+2581 shown as a space.
                                pieces.add(tokenizer.tokenText(id.asInt()).replace('\u2581', ' '));
                            }
                            List<String> expected = new ArrayList<>();
                            c.get("pieces").forEach(p -> expected.add(p.asString()));
                            assertThat(pieces).isEqualTo(expected);
                        }));
            }
        }
        return tests.stream();
    }

    private static Stream<DynamicTest> cases(String dir, String textField, String tokensField) throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path file : goldenFiles(dir)) {
            JsonNode golden = JSON.readTree(file.toFile());
            String model = golden.get("model").asString();
            for (JsonNode c : golden.get("cases")) {
                String text = c.get(textField).asString();
                int[] expected = ids(c.get(tokensField));
                tests.add(DynamicTest.dynamicTest(file.getFileName() + " '" + text + "'", () -> assertThat(
                                VocabFixtures.model(model).encode(text, true, false))
                        .as("%s: %s", model, text)
                        .containsExactly(expected)));
            }
        }
        assertThat(tests).isNotEmpty();
        return tests.stream();
    }

    private static List<Path> goldenFiles(String dir) throws IOException {
        try (Stream<Path> files = Files.list(TestData.golden(dir))) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }

    private static int[] ids(JsonNode array) {
        int[] ids = new int[array.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = array.get(i).asInt();
        }
        return ids;
    }
}
