package com.llmserve.engine.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** How a caller sees an embedding model: many inputs per call, any grouping, clear refusals. */
class EmbeddingModelTests {

    private static CpuBackend backend;
    private static GgufFile file;
    private static List<int[]> texts;

    @BeforeAll
    static void load() throws IOException {
        backend = new CpuBackend(2);
        file = GgufFile.open(TestData.model("all-MiniLM-L6-v2-q8_0.gguf"));
        Tokenizer tokenizer = Tokenizer.fromGguf(file.metadata());
        JsonNode inputs = JsonMapper.builder()
                .build()
                .readTree(TestData.golden("inputs.json").toFile())
                .get("embeddings");
        texts = new ArrayList<>();
        for (JsonNode text : inputs) {
            texts.add(tokenizer.encode(text.asString(), true, false));
        }
    }

    @AfterAll
    static void close() {
        file.close();
        backend.close();
    }

    @Test
    void aVectorIsTheSameWhetherItsInputRunsAloneOrWithOthers() {
        try (EmbeddingModel model = Architectures.loadEmbeddingModel(file, backend, ModelOptions.DEFAULT)) {
            float[][] together = model.embed(texts);
            assertThat(together.length).isEqualTo(texts.size());
            for (int i = 0; i < texts.size(); i++) {
                float[] alone = model.embed(List.of(texts.get(i)))[0];
                assertClose(together[i], alone, 1e-6, "text " + i);
            }
            // and in another order with repeats: each vector follows its own input
            float[][] shuffled = model.embed(List.of(texts.get(7), texts.get(0), texts.get(6), texts.get(0)));
            assertClose(shuffled[0], together[7], 1e-6, "text 7");
            assertClose(shuffled[1], together[0], 1e-6, "text 0");
            assertClose(shuffled[2], together[6], 1e-6, "text 6");
            assertThat(shuffled[3]).containsExactly(shuffled[1]);
        }
    }

    @Test
    void inputsBeyondOnePassRunInSeveralWithTheSameVectors() {
        int total = texts.stream().mapToInt(t -> t.length).sum();
        int longest = texts.stream().mapToInt(t -> t.length).max().orElseThrow();
        // scratch rows = max(maxBatchTokens, context): the longest input fits, all of them do not
        ModelOptions small = new ModelOptions(16, longest);
        assertThat(longest).isLessThan(total);
        try (EmbeddingModel one = Architectures.loadEmbeddingModel(file, backend, ModelOptions.DEFAULT);
                EmbeddingModel several = Architectures.loadEmbeddingModel(file, backend, small)) {
            float[][] expected = one.embed(texts);
            List<int[]> many = new ArrayList<>();
            for (int repeat = 0; repeat < 5; repeat++) {
                many.addAll(texts);
            }
            float[][] actual = several.embed(many);
            for (int i = 0; i < many.size(); i++) {
                assertClose(actual[i], expected[i % texts.size()], 1e-6, "input " + i);
            }
        }
    }

    @Test
    void anInputLongerThanTheContextIsRefusedBeforeAnyWork() {
        try (EmbeddingModel model = Architectures.loadEmbeddingModel(file, backend, ModelOptions.DEFAULT)) {
            assertThat(model.contextLength()).isEqualTo(512);
            int[] tooLong = new int[513];
            Arrays.fill(tooLong, 1996);
            assertThatThrownBy(() -> model.embed(List.of(texts.get(0), tooLong)))
                    .isInstanceOfSatisfying(InputTooLongException.class, e -> {
                        assertThat(e.index()).isEqualTo(1);
                        assertThat(e.tokens()).isEqualTo(513);
                        assertThat(e.limit()).isEqualTo(512);
                    })
                    .hasMessage("input 1 has 513 tokens, more than the model's context of 512");
            int[] exactlyFull = Arrays.copyOf(tooLong, 512);
            assertThat(model.embed(List.of(exactlyFull))[0]).hasSize(384);
        }
        // a shorter context asked for at load time is the limit
        try (EmbeddingModel model = Architectures.loadEmbeddingModel(file, backend, new ModelOptions(512, 100))) {
            int paragraph = texts.stream().mapToInt(t -> t.length).max().orElseThrow();
            assertThatThrownBy(() -> model.embed(texts))
                    .isInstanceOf(InputTooLongException.class)
                    .hasMessageContaining(paragraph + " tokens")
                    .hasMessageContaining("context of 100");
        }
    }

    @Test
    void emptyCallsGiveNothingAndEmptyOrUnknownInputsAreRefused() {
        try (EmbeddingModel model = Architectures.loadEmbeddingModel(file, backend, ModelOptions.DEFAULT)) {
            assertThat(model.embed(List.of())).isEmpty();
            assertThatThrownBy(() -> model.embed(List.of(texts.get(0), new int[0])))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("input 1 has no tokens");
            assertThatThrownBy(() -> model.embed(List.of(new int[] {101, 30522, 102})))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("token id 30522");
        }
    }

    private static void assertClose(float[] actual, float[] expected, double tolerance, String what) {
        assertThat(actual).hasSize(expected.length);
        for (int k = 0; k < expected.length; k++) {
            assertThat((double) actual[k]).as("%s dimension %d", what, k).isCloseTo(expected[k], within(tolerance));
        }
    }
}
