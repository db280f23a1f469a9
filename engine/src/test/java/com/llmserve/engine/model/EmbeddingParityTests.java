package com.llmserve.engine.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Embeddings against llama.cpp's on every embedding golden of {@code ../shared/golden}: the texts
 * are tokenized by the file's own tokenizer (ids must equal the golden ones), embedded together
 * in one call, and compared per dimension and by cosine with the tolerances of the goldens' README.
 * Runs on the CPU backend; {@link GpuEmbeddingParityTests} runs the same goldens on the GPU.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbeddingParityTests {

    /** Per-model tolerances from {@code shared/golden/README.md}. */
    record Tolerance(double maxAbs, double minCosine) {}

    private Backend backend;

    /** The backend under test. */
    Backend openBackend() {
        return new CpuBackend(2);
    }

    @BeforeAll
    void startBackend() {
        backend = openBackend();
    }

    @AfterAll
    void stopBackend() {
        if (backend != null) {
            backend.close();
        }
    }

    static Stream<Arguments> goldens() throws IOException {
        try (var files = Files.list(TestData.golden("embeddings"))) {
            return files
                    .filter(p -> p.toString().endsWith(".json"))
                    .sorted()
                    .map(p -> Arguments.of(p.getFileName().toString(), p))
                    .toList()
                    .stream();
        }
    }

    static Tolerance tolerance(String model) {
        return model.contains("-f16") ? new Tolerance(1e-3, 0.99999) : new Tolerance(1e-2, 0.998);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldens")
    void embeddingsMatchLlamaCpp(String name, Path golden) throws IOException {
        JsonNode root = JsonMapper.builder().build().readTree(golden.toFile());
        String modelFile = root.get("model").asString();
        Tolerance tol = tolerance(modelFile);
        try (GgufFile file = GgufFile.open(TestData.model(modelFile));
                EmbeddingModel model = Architectures.loadEmbeddingModel(file, backend, ModelOptions.DEFAULT)) {
            assertThat(Architectures.kindOf(file)).isEqualTo(ModelKind.EMBEDDING);
            assertThat(model.dimensions()).isEqualTo(root.get("n_embd").asInt());
            Tokenizer tokenizer = Tokenizer.fromGguf(file.metadata());
            List<int[]> inputs = new ArrayList<>();
            for (JsonNode c : root.get("cases")) {
                int[] tokens = tokenizer.encode(c.get("text").asString(), true, false);
                assertThat(tokens).as(c.get("text").asString()).containsExactly(ints(c.get("tokens")));
                inputs.add(tokens);
            }
            float[][] vectors = model.embed(inputs);
            double worstAbs = 0;
            double worstCosine = 1;
            List<String> failures = new ArrayList<>();
            for (int i = 0; i < inputs.size(); i++) {
                JsonNode c = root.get("cases").get(i);
                float[] expected = floats(c.get("embedding"));
                float[] actual = vectors[i];
                assertThat(actual).hasSize(expected.length);
                double maxAbs = 0;
                double dot = 0;
                double na = 0;
                double ne = 0;
                for (int k = 0; k < expected.length; k++) {
                    maxAbs = Math.max(maxAbs, Math.abs(actual[k] - expected[k]));
                    dot += (double) actual[k] * expected[k];
                    na += (double) actual[k] * actual[k];
                    ne += (double) expected[k] * expected[k];
                }
                double cosine = dot / Math.sqrt(na * ne);
                assertThat(Math.sqrt(na)).as("norm").isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
                worstAbs = Math.max(worstAbs, maxAbs);
                worstCosine = Math.min(worstCosine, cosine);
                if (maxAbs > tol.maxAbs() || cosine < tol.minCosine()) {
                    failures.add("\"" + c.get("text").asString() + "\": max |d| " + maxAbs + ", cosine " + cosine);
                }
            }
            System.out.printf(
                    "embedding parity %-4s %-28s max|d| %.3g (tol %.0e)  min cosine %.9f (tol %s)%n",
                    backend.name(), modelFile, worstAbs, tol.maxAbs(), worstCosine, tol.minCosine());
            assertThat(failures).as(modelFile).isEmpty();
        }
    }

    private static int[] ints(JsonNode array) {
        int[] out = new int[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asInt();
        }
        return out;
    }

    private static float[] floats(JsonNode array) {
        float[] out = new float[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) array.get(i).asDouble();
        }
        return out;
    }
}
