package com.llmserve.bench;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchBenchTests {

    /** The surefire configuration points at ../shared, beside the checkout. */
    private static final Path MODEL = Path.of(System.getProperty("llmserve.shared.dir"), "models", "stories260K.gguf");

    private static final String NUMBER = " +\\d+\\.\\d";

    @Test
    void reportsOneRowPerConcurrencyLevel() throws Exception {
        BatchBench.Options options = BatchBench.Options.parse(new String[] {
            "--model", MODEL.toString(), "--concurrency", "1,3", "--prompt-length", "8", "-n", "4", "--threads", "1"
        });
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        BatchBench.run(options, new PrintStream(bytes, true, UTF_8));

        List<String> lines = bytes.toString(UTF_8).lines().toList();
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0))
                .isEqualTo(
                        "model stories260K.gguf, 1 threads, prompt 8 tokens, 4 generated per request, no prefix caching");
        assertThat(lines.get(1))
                .isEqualTo("concurrency | aggregate decode tok/s | per-stream tok/s | wall s | speed-up vs 1");
        assertThat(lines.get(2)).matches(" +1 \\|" + NUMBER + " \\|" + NUMBER + " \\|" + NUMBER + " \\| 1\\.00x");
        assertThat(lines.get(3))
                .matches(" +3 \\|" + NUMBER + " \\|" + NUMBER + " \\|" + NUMBER + " \\| \\d+\\.\\d\\dx");
    }

    @Test
    void takesDefaultsForWhatIsNotGiven() {
        BatchBench.Options options = BatchBench.Options.parse(new String[] {"-m", "model.gguf"});

        assertThat(options.model()).isEqualTo(Path.of("model.gguf"));
        assertThat(options.levels()).containsExactly(1, 4, 16, 64);
        assertThat(options.promptLength()).isEqualTo(128);
        assertThat(options.generate()).isEqualTo(64);
    }

    @Test
    void rejectsACommandLineWithoutModel() {
        assertThatThrownBy(() -> BatchBench.Options.parse(new String[] {"--concurrency", "1,4"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--model is required");
    }

    @Test
    void rejectsUnknownOptionsAndBadNumbers() {
        assertThatThrownBy(() -> parse("--batch-bench"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown option --batch-bench");
        assertThatThrownBy(() -> parse("--concurrency", "1,x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--concurrency: 'x' is not a number");
        assertThatThrownBy(() -> parse("--concurrency", "4,0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--concurrency must be positive, not 0");
        assertThatThrownBy(() -> parse("-n", "1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--max-tokens must be at least 2");
        assertThatThrownBy(() -> parse("--threads"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--threads needs a value");
    }

    private static BatchBench.Options parse(String... more) {
        String[] args = new String[more.length + 2];
        args[0] = "--model";
        args[1] = "model.gguf";
        System.arraycopy(more, 0, args, 2, more.length);
        return BatchBench.Options.parse(args);
    }
}
