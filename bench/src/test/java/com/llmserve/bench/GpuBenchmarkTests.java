package com.llmserve.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The benchmark itself needs a GPU (engine/src/test/device/run-device.sh runs it); its command line does not. */
class GpuBenchmarkTests {

    @Test
    void aMixtureReadsOnlyItsUsedExpertsPerStep() throws java.io.IOException {
        Path model = Path.of(System.getProperty("llmserve.shared.dir"), "models", "tiny-qwen3moe-Q8_0.gguf");
        try (com.llmserve.engine.gguf.GgufFile f = com.llmserve.engine.gguf.GgufFile.open(model)) {
            long dense = 0;
            long experts = 0;
            for (com.llmserve.engine.gguf.GgufTensor t : f.tensors()) {
                if (t.dims() == 3) {
                    experts += t.byteSize();
                } else if (t.dims() == 2 && !t.name().equals("token_embd.weight")) {
                    dense += t.byteSize();
                }
            }
            int count = f.metadata().findInt("qwen3moe.expert_count").orElseThrow();
            int used = f.metadata().findInt("qwen3moe.expert_used_count").orElseThrow();
            assertThat(experts).isPositive();
            assertThat(GpuBenchmark.weightBytesPerStep(f)).isEqualTo(dense + experts / count * used);
        }
    }

    @Test
    void readsModelsWithLabelsAndAnchors() {
        GpuBenchmark.Options o = GpuBenchmark.Options.parse(new String[] {
            "--model",
            "/m/llama-8b-q4_0.gguf=8B-Q4_0:257,10541,2673",
            "--model",
            "/m/llama-1b-q4_0.gguf",
            "--sequences",
            "2,8",
            "--no-graphs",
            "--host-argmax",
            "--gemm-min-rows",
            "16"
        });

        assertThat(o.models()).hasSize(2);
        assertThat(o.models().get(0).file()).isEqualTo(Path.of("/m/llama-8b-q4_0.gguf"));
        assertThat(o.models().get(0).label()).isEqualTo("8B-Q4_0");
        assertThat(o.models().get(0).anchors()).containsExactly(257, 10541, 2673);
        assertThat(o.models().get(1).label()).isEqualTo("llama-1b-q4_0.gguf");
        assertThat(o.models().get(1).anchors()).isNull();
        assertThat(o.sequences()).containsExactly(2, 8);
        assertThat(o.gpu().graphs()).isFalse();
        assertThat(o.gpu().gemmMinRows()).isEqualTo(16);
        assertThat(o.topK()).isZero();
    }

    @Test
    void halfCopiesDefaultToTheServicesShareAndCanBeTurnedOff() {
        assertThat(parse().gpu().halfWeightShare()).isEqualTo(0.5);
        assertThat(parse("--half-weight-share", "0").gpu().halfWeights()).isFalse();
        assertThat(parse("--half-weights").gpu().halfWeightShare()).isEqualTo(1);
        assertThatThrownBy(() -> parse("--half-weight-share", "2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--half-weight-share must be from 0 to 1, not 2");
    }

    @Test
    void warmsUpForEightThousandStepsUnlessToldOtherwise() {
        assertThat(parse().warmUpSteps()).isEqualTo(8000);
        assertThat(parse("--warm-up", "1500").warmUpSteps()).isEqualTo(1500);
        assertThatThrownBy(() -> parse("--warm-up", "0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--warm-up must be positive, not 0");
    }

    @Test
    void ablatesOnlyWhenAsked() {
        assertThat(parse().ablateRows()).isEmpty();
        assertThat(parse("--ablate").ablateRows()).containsExactly(1);
        assertThat(parse("--ablate-rows", "1,64").ablateRows()).containsExactly(1, 64);
    }

    @Test
    void rejectsACommandLineWithoutModel() {
        assertThatThrownBy(() -> GpuBenchmark.Options.parse(new String[] {"--profile"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no --model given");
    }

    @Test
    void rejectsUnknownOptionsAndBadNumbers() {
        assertThatThrownBy(() -> parse("--graphs"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown option --graphs");
        assertThatThrownBy(() -> parse("--sequences", "4,16,"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--sequences: '' is not a number");
        assertThatThrownBy(() -> parse("--decode-steps", "0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--decode-steps must be positive, not 0");
        assertThatThrownBy(() -> parse("--generate", "2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--generate must be at least 3");
        assertThatThrownBy(() -> parse("--prefill"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--prefill needs a value");
        assertThatThrownBy(() -> GpuBenchmark.Options.parse(new String[] {"--model", "a.gguf=A:257,fast"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--model a.gguf=A:257,fast: anchors are numbers");
    }

    private static GpuBenchmark.Options parse(String... more) {
        String[] args = new String[more.length + 2];
        args[0] = "--model";
        args[1] = "model.gguf";
        System.arraycopy(more, 0, args, 2, more.length);
        return GpuBenchmark.Options.parse(args);
    }
}
