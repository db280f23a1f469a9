package com.llmserve.bench;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.backend.cpu.CpuKernels;
import com.llmserve.engine.backend.cpu.CpuShards;
import com.llmserve.engine.gguf.GgufFile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The split-against-whole report, on CPU shards (which sum in memory) standing in for GPUs. */
class SplitParityTests {

    private static final Path MODEL = Path.of(System.getProperty("llmserve.shared.dir"), "models", "tiny-Q8_0.gguf");

    @Test
    void aSplitModelIsReportedWithinTheTolerancePromptByPrompt() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean ok = compare(CpuKernels.AUTO, CpuKernels.AUTO, bytes, "--prompts", "2");
        List<String> lines = bytes.toString(UTF_8).lines().toList();
        assertThat(ok).as(String.join("\n", lines)).isTrue();
        assertThat(lines).hasSize(6);
        assertThat(lines.get(0)).contains("tiny-Q8_0.gguf on").contains("2 prompts x (8 + 6) tokens, greedy");
        assertThat(lines.get(1)).contains("fed the whole model's tokens");
        assertThat(lines.get(3))
                .startsWith("prompt 0: max |dlogprob| over the top 10 0.0")
                .endsWith("within tolerance");
        assertThat(lines.get(5))
                .startsWith("split over 2 against whole: max |dlogprob| ")
                .endsWith(": pass");
    }

    @Test
    void logProbabilitiesThatMovePastTheToleranceFail() throws Exception {
        // the split on the Java kernels against the whole model on the native ones: the same
        // products summed in another order move log-probabilities by a little, past a tolerance of 0
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean ok = compare(CpuKernels.NATIVE, CpuKernels.JAVA, bytes, "--prompts", "1", "--tolerance", "0");
        assertThat(ok).as(bytes.toString(UTF_8)).isFalse();
        assertThat(bytes.toString(UTF_8)).contains("PAST tolerance").contains(": FAIL");
    }

    /** The tiny model whole on one CPU backend against split over two CPU shards, 8-token prompts, 6 steps. */
    private static boolean compare(CpuKernels whole, CpuKernels split, ByteArrayOutputStream report, String... more)
            throws Exception {
        String[] args = {"--model", MODEL.toString(), "--prompt-tokens", "8", "--steps", "6"};
        String[] all = Stream.concat(Arrays.stream(args), Arrays.stream(more)).toArray(String[]::new);
        try (GgufFile file = GgufFile.open(MODEL)) {
            return SplitParity.compare(
                    file,
                    () -> new CpuBackend(1, true, false, whole),
                    () -> CpuShards.open(2, 1, split),
                    SplitParity.Options.parse(all),
                    new PrintStream(report, true, UTF_8));
        }
    }

    @Test
    void optionsAreCheckedBeforeAnythingLoads() {
        assertThatThrownBy(() -> SplitParity.Options.parse(new String[] {"--prompts", "2"}))
                .hasMessage("--model is required");
        assertThatThrownBy(() -> SplitParity.Options.parse(new String[] {"--model", "m", "--tensor-parallel", "1"}))
                .hasMessage("--tensor-parallel must be 2 or more, not 1");
        assertThatThrownBy(() -> SplitParity.Options.parse(new String[] {"--model", "m", "--tolerance", "x"}))
                .hasMessage("--tolerance: 'x' is not a number of 0 or more");
    }
}
