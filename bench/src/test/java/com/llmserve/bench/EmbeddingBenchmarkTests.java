package com.llmserve.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The benchmark itself needs a GPU; its command line does not. */
class EmbeddingBenchmarkTests {

    @Test
    void readsBatchSizesAndOptions() {
        EmbeddingBenchmark.Options o = EmbeddingBenchmark.Options.parse(new String[] {
            "--model", "minilm.gguf", "--inputs", "1,32", "--tokens", "16", "--half-weights", "--profile"
        });

        assertThat(o.model()).isEqualTo(Path.of("minilm.gguf"));
        assertThat(o.sizes()).containsExactly(1, 32);
        assertThat(o.tokens()).isEqualTo(16);
        assertThat(o.gpu().halfWeights()).isTrue();
        assertThat(o.profile()).isTrue();
    }

    @Test
    void rejectsACommandLineWithoutModel() {
        assertThatThrownBy(() -> EmbeddingBenchmark.Options.parse(new String[] {"--inputs", "8"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no --model given");
    }

    @Test
    void rejectsUnknownOptionsAndBadNumbers() {
        assertThatThrownBy(() -> parse("--batch", "8"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown option --batch");
        assertThatThrownBy(() -> parse("--inputs", "32,-1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--inputs must be positive, not -1");
        assertThatThrownBy(() -> parse("--tokens", "1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--tokens must be at least 2");
        assertThatThrownBy(() -> parse("--tokens", "many"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--tokens: 'many' is not a number");
    }

    private static EmbeddingBenchmark.Options parse(String... more) {
        String[] args = new String[more.length + 2];
        args[0] = "--model";
        args[1] = "model.gguf";
        System.arraycopy(more, 0, args, 2, more.length);
        return EmbeddingBenchmark.Options.parse(args);
    }
}
