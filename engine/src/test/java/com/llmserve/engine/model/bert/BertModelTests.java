package com.llmserve.engine.model.bert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.gguf.GgufBuilder;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.EmbeddingModel;
import com.llmserve.engine.model.InvalidModelException;
import com.llmserve.engine.model.ModelKind;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.model.UnsupportedArchitectureException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** BERT files built here (random F32 weights) against a float64 reference, and the loader's refusals by name. */
class BertModelTests {

    private static final List<int[]> INPUTS = List.of(
            new int[] {1, 17, 5, 42, 9, 2},
            new int[] {1, 33},
            new int[] {1, 4, 8, 15, 16, 23, 42, 49, 0, 11, 12, 13, 14, 2},
            new int[] {3});

    @TempDir
    Path dir;

    private static CpuBackend backend;

    @BeforeAll
    static void start() {
        backend = new CpuBackend(2);
    }

    @AfterAll
    static void stop() {
        backend.close();
    }

    @ParameterizedTest(name = "pooling {0}, {1} kv heads")
    @CsvSource({"1, 4", "2, 4", "3, 4", "1, 2", "3, 1"})
    void vectorsMatchAFloat64Reference(int pooling, int kvHeads) throws IOException {
        Path p = SyntheticBert.write(
                dir, "bert.gguf", SyntheticBert.Spec.small().pooling(pooling).kvHeads(kvHeads));
        try (GgufFile f = GgufFile.open(p);
                EmbeddingModel model = Architectures.loadEmbeddingModel(f, backend, ModelOptions.DEFAULT)) {
            assertThat(model.architecture()).isEqualTo("bert");
            assertThat(model.dimensions()).isEqualTo(32);
            assertThat(model.contextLength()).isEqualTo(16);
            float[][] vectors = model.embed(INPUTS);
            ReferenceEncoder reference = new ReferenceEncoder(f);
            for (int i = 0; i < INPUTS.size(); i++) {
                double[] expected = reference.embed(INPUTS.get(i));
                for (int k = 0; k < expected.length; k++) {
                    // the engine's GELU returns halves, as ggml's does; the reference is exact
                    assertThat((double) vectors[i][k])
                            .as("input %d dimension %d", i, k)
                            .isCloseTo(expected[k], within(1e-3));
                }
            }
        }
    }

    @Test
    void aTensorOfTheWrongShapeIsNamedWithBothShapes() throws IOException {
        Path p =
                SyntheticBert.write(dir, "bad.gguf", SyntheticBert.Spec.small().reshape("blk.1.ffn_up.weight", 32, 48));
        try (GgufFile f = GgufFile.open(p)) {
            assertThatThrownBy(() -> Architectures.loadEmbeddingModel(f, backend, ModelOptions.DEFAULT))
                    .isInstanceOf(InvalidModelException.class)
                    .hasMessageContaining("blk.1.ffn_up.weight")
                    .hasMessageContaining("[32, 48]")
                    .hasMessageContaining("[32, 64]");
        }
    }

    @Test
    void aPositionTableShorterThanTheContextIsRefused() throws IOException {
        Path p = SyntheticBert.write(
                dir, "short.gguf", SyntheticBert.Spec.small().reshape("position_embd.weight", 32, 8));
        try (GgufFile f = GgufFile.open(p)) {
            assertThatThrownBy(() -> Architectures.loadEmbeddingModel(f, backend, ModelOptions.DEFAULT))
                    .isInstanceOf(InvalidModelException.class)
                    .hasMessageContaining("position_embd.weight")
                    .hasMessageContaining("[32, 8]")
                    .hasMessageContaining("16");
        }
    }

    @Test
    void poolingNoneIsRefusedNamingTheKindsServed() throws IOException {
        Path none =
                SyntheticBert.write(dir, "none.gguf", SyntheticBert.Spec.small().pooling(0));
        Path missing = SyntheticBert.write(
                dir, "missing.gguf", SyntheticBert.Spec.small().pooling(-1));
        try (GgufFile a = GgufFile.open(none);
                GgufFile b = GgufFile.open(missing)) {
            assertThatThrownBy(() -> Architectures.loadEmbeddingModel(a, backend, ModelOptions.DEFAULT))
                    .isInstanceOf(InvalidModelException.class)
                    .hasMessageContaining("bert.pooling_type = 0 (NONE)")
                    .hasMessageContaining("MEAN (1), CLS (2) or LAST (3)");
            assertThatThrownBy(() -> Architectures.loadEmbeddingModel(b, backend, ModelOptions.DEFAULT))
                    .isInstanceOf(InvalidModelException.class)
                    .hasMessageContaining("bert.pooling_type is missing");
        }
    }

    @Test
    void aCausalBertIsRefused() throws IOException {
        Path p = SyntheticBert.write(
                dir, "causal.gguf", SyntheticBert.Spec.small().asCausal());
        try (GgufFile f = GgufFile.open(p)) {
            assertThatThrownBy(() -> Architectures.loadEmbeddingModel(f, backend, ModelOptions.DEFAULT))
                    .isInstanceOf(InvalidModelException.class)
                    .hasMessageContaining("bert.attention.causal");
        }
    }

    @Test
    void aContextOptionBeyondThePositionTableIsRefused() throws IOException {
        Path p = SyntheticBert.write(dir, "bert.gguf", SyntheticBert.Spec.small());
        try (GgufFile f = GgufFile.open(p)) {
            assertThatThrownBy(() -> Architectures.loadEmbeddingModel(f, backend, new ModelOptions(64, 17)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("17")
                    .hasMessageContaining("16");
        }
    }

    @Test
    void kindOfTellsEmbeddingFilesFromCompletionFiles() throws IOException {
        Path bert = SyntheticBert.write(dir, "bert.gguf", SyntheticBert.Spec.small());
        Path llama = new GgufBuilder().kvString("general.architecture", "llama").writeTo(dir, "llama.gguf");
        Path gpt2 = new GgufBuilder().kvString("general.architecture", "gpt2").writeTo(dir, "gpt2.gguf");
        try (GgufFile b = GgufFile.open(bert);
                GgufFile l = GgufFile.open(llama);
                GgufFile g = GgufFile.open(gpt2)) {
            assertThat(Architectures.kindOf(b)).isEqualTo(ModelKind.EMBEDDING);
            assertThat(Architectures.kindOf(l)).isEqualTo(ModelKind.COMPLETION);
            assertThatThrownBy(() -> Architectures.kindOf(g))
                    .isInstanceOf(UnsupportedArchitectureException.class)
                    .hasMessageContaining("'gpt2'")
                    .hasMessageContaining(
                            "bert, gemma2, gemma3, gpt-oss, llama, mistral, phi3, qwen2, qwen3, qwen3moe");
            assertThatThrownBy(() -> Architectures.loadEmbeddingModel(l, backend, ModelOptions.DEFAULT))
                    .isInstanceOf(UnsupportedArchitectureException.class)
                    .hasMessageContaining("'llama'; supported: bert");
        }
    }
}
