package com.llmserve.engine.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.backend.cpu.CpuKernels;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.kv.KvLayout;
import com.llmserve.engine.kv.KvPools;
import com.llmserve.engine.kv.SequenceBlocks;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Q8_0 KV cache against llama.cpp's goldens (recorded with its F16 cache) and against our own
 * F16 cache: the golden tokens teacher-forced as one batch ({@code BATCH}) and one per step
 * ({@code DECODE}), through KV groups of blocks of 4 (windowed layers' blocks given back as in
 * {@link GoldenParityTests}'s {@code WINDOW_FREEING}: the sliding-window files). Files whose heads
 * are not a multiple of 32 values are refused at load (checked here too) and skipped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KvQ8ParityTests {

    /**
     * The most |Δ log-prob| of a golden's top tokens between the Q8_0 and the F16 cache, both ours:
     * 0.031 measured at worst (tiny-gemma3-Q8_0), 0.001-0.03 over the files (docs/engine.md). The
     * Q8_0 cache against llama.cpp's goldens may differ by the file's own tolerance plus this, and
     * the tokens llama.cpp chose by a logit margin of the file's token margin plus twice this
     * must stay the argmax (tiny-qwen3moe-F16 has one by a smaller margin that the Q8_0 cache flips).
     */
    static final double Q8_VS_F16 = 0.05;

    private static final int BLOCK = 4;

    private Backend backend;

    @BeforeAll
    void startBackend() {
        backend = openBackend();
    }

    Backend openBackend() {
        return new CpuBackend(2, true, false, CpuKernels.AUTO);
    }

    @AfterAll
    void stopBackend() {
        if (backend != null) {
            backend.close();
        }
    }

    enum Mode {
        BATCH,
        DECODE
    }

    static Stream<Arguments> goldensAndModes() throws IOException {
        return GoldenParityTests.goldens()
                .flatMap(a -> Stream.of(Mode.values()).map(m -> Arguments.of(a.get()[0], m, a.get()[1])));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("goldensAndModes")
    void q8CacheStaysCloseToF16AndLlamaCpp(String name, Mode mode, Path golden) throws IOException {
        JsonNode root = JsonMapper.builder().build().readTree(golden.toFile());
        String modelFile = root.get("model").asString();
        GoldenParityTests.Tolerance tol = GoldenParityTests.tolerance(modelFile);
        try (GgufFile file = GgufFile.open(TestData.model(modelFile));
                LanguageModel f16 = Architectures.loadLanguageModel(file, backend, ModelOptions.DEFAULT)) {
            ModelOptions q8Options = ModelOptions.DEFAULT.withKvCacheType(KvCacheType.Q8_0);
            LanguageModel loaded;
            try {
                loaded = Architectures.loadLanguageModel(file, backend, q8Options);
            } catch (InvalidModelException e) {
                assertThat(e)
                        .hasMessageContaining("heads of")
                        .hasMessageContaining("q8_0")
                        .hasMessageContaining("f16");
                Assumptions.abort(modelFile + ": " + e.getMessage());
                return;
            }
            try (LanguageModel q8 = loaded) {
                assertThat(q8.kvCacheType()).isEqualTo(KvCacheType.Q8_0);
                double worstGolden = 0;
                double worstOwn = 0;
                double worstOwnF16Golden = 0;
                int topChecked = 0;
                int argmaxDiffers = 0;
                for (JsonNode c : root.get("cases")) {
                    List<double[]> a = run(f16, c, mode);
                    List<double[]> b = run(q8, c, mode);
                    JsonNode steps = c.get("steps");
                    for (int k = 0; k < steps.size(); k++) {
                        JsonNode top = steps.get(k).get("top");
                        JsonNode topLogprob = steps.get(k).get("top_logprob");
                        for (int i = 0; i < top.size(); i++) {
                            int id = top.get(i).get(0).asInt();
                            double expected = topLogprob.get(i).asDouble();
                            worstGolden = Math.max(worstGolden, Math.abs(b.get(k)[id] - expected));
                            worstOwnF16Golden = Math.max(worstOwnF16Golden, Math.abs(a.get(k)[id] - expected));
                            worstOwn = Math.max(worstOwn, Math.abs(b.get(k)[id] - a.get(k)[id]));
                            topChecked++;
                        }
                        if (steps.get(k).get("logit_margin").asDouble() >= tol.tokenMargin() + 2 * Q8_VS_F16
                                && GoldenParityTests.argmax(b.get(k))
                                        != steps.get(k).get("token").asInt()) {
                            argmaxDiffers++;
                        }
                    }
                }
                System.out.printf(
                        "kv-q8 %-28s %-6s max|dlogprob| q8 vs golden %.5f (f16 vs golden %.5f), q8 vs f16 %.5f,"
                                + " %d top logprobs, %d argmax changes%n",
                        modelFile, mode, worstGolden, worstOwnF16Golden, worstOwn, topChecked, argmaxDiffers);
                assertThat(worstOwn).as(modelFile + " q8_0 vs f16").isLessThanOrEqualTo(Q8_VS_F16);
                assertThat(worstGolden)
                        .as(modelFile + " q8_0 vs llama.cpp")
                        .isLessThanOrEqualTo(tol.logprob() + Q8_VS_F16);
                assertThat(argmaxDiffers)
                        .as(modelFile + " tokens llama.cpp chose by a margin")
                        .isZero();
            }
        }
    }

    /** The log-probs of each golden step, the tokens fed in KV groups of blocks of {@value #BLOCK}. */
    static List<double[]> run(LanguageModel model, JsonNode c, Mode mode) {
        int[] prompt = GoldenParityTests.ints(c.get("prompt_tokens"));
        JsonNode steps = c.get("steps");
        int[] tokens = new int[prompt.length + steps.size() - 1];
        System.arraycopy(prompt, 0, tokens, 0, prompt.length);
        for (int k = 0; k + 1 < steps.size(); k++) {
            tokens[prompt.length + k] = steps.get(k).get("token").asInt();
        }
        int[] windows = new int[model.layers()];
        for (int l = 0; l < windows.length; l++) {
            windows[l] = model.slidingWindow(l);
        }
        KvLayout layout = KvLayout.of(windows, 256, BLOCK, 1, BLOCK, true);
        KvPools pools = new KvPools(layout, BLOCK);
        List<double[]> out = new ArrayList<>();
        try (KvStorage kv = layout.groups() == 1
                ? model.newKvStorage(layout.blocksOfGroup()[0], BLOCK)
                : model.newKvStorage(layout.groupOfLayer(), layout.blocksOfGroup(), BLOCK)) {
            assertThat(kv.type()).isEqualTo(model.kvCacheType());
            SequenceBlocks seq = new SequenceBlocks(pools);
            if (mode == Mode.BATCH && layout.groups() == 1 && !layout.windowed(0)) {
                assertThat(seq.ensureCapacity(tokens.length)).isTrue();
                Logits logits = model.forward(
                        Batch.builder(BLOCK)
                                .add(seq.blocks(), 0, tokens, 0, tokens.length, Batch.Logits.ALL)
                                .build(),
                        kv);
                for (int k = 0; k < steps.size(); k++) {
                    out.add(GoldenParityTests.logSoftmax(logits, prompt.length - 1 + k));
                }
            } else {
                // windowed layers free blocks as they go: the prompt in chunks, then one token a step
                int chunk = mode == Mode.BATCH ? BLOCK : 1;
                Logits logits = null;
                for (int pos = 0; pos < prompt.length; pos += chunk) {
                    logits = step(model, kv, seq, tokens, pos, Math.min(chunk, prompt.length - pos));
                }
                for (int k = 0; k < steps.size(); k++) {
                    out.add(GoldenParityTests.logSoftmax(logits, 0));
                    if (k + 1 < steps.size()) {
                        logits = step(model, kv, seq, tokens, prompt.length + k, 1);
                    }
                }
            }
            seq.release();
        }
        assertThat(pools.used()).containsOnly(0L);
        return out;
    }

    private static Logits step(LanguageModel model, KvStorage kv, SequenceBlocks seq, int[] tokens, int pos, int n) {
        seq.slide(pos);
        assertThat(seq.ensureCapacity(pos + n)).isTrue();
        return model.forward(
                Batch.builder(BLOCK)
                        .add(seq.blocks(), pos, tokens, pos, n, Batch.Logits.LAST)
                        .build(),
                kv);
    }

    @Test
    void q8CacheTakesThirtyFourBytesPerThirtyTwoValues() throws IOException {
        try (GgufFile file = GgufFile.open(TestData.model("tiny-F16.gguf"));
                LanguageModel q8 = Architectures.loadLanguageModel(
                        file, backend, ModelOptions.DEFAULT.withKvCacheType(KvCacheType.Q8_0));
                KvStorage f16Kv =
                        backend.allocateKv(new int[q8.layers()], new int[] {10}, 16, q8.kvDim(), KvCacheType.F16);
                KvStorage q8Kv = q8.newKvStorage(10, 16)) {
            assertThat(q8Kv.type()).isEqualTo(KvCacheType.Q8_0);
            assertThat(f16Kv.byteSize()).isEqualTo(10L * 16 * q8.layers() * 2 * 2 * q8.kvDim());
            assertThat(q8Kv.byteSize()).isEqualTo(10L * 16 * q8.layers() * 2 * (q8.kvDim() / 32) * 34);
            assertThat(q8Kv.toString()).endsWith("q8_0");
        }
    }

    /**
     * The Java kernels' dequantization (no native library) gives the same logits, bit for bit, as
     * the native one: tiny-F16's products run on the Java kernels either way, so only the KV reads
     * differ between the two backends.
     */
    @Test
    void theJavaKernelsReadTheQ8CacheAsTheNativeOnesDo() throws IOException {
        Assumptions.assumeTrue(backend instanceof CpuBackend, "the CPU backend's two kinds of kernels");
        Assumptions.assumeTrue(CpuBackend.nativeKernelsAvailable(), "no native CPU kernels here");
        JsonNode root = JsonMapper.builder()
                .build()
                .readTree(TestData.golden("generation").resolve("tiny-F16.json").toFile());
        ModelOptions q8Options = ModelOptions.DEFAULT.withKvCacheType(KvCacheType.Q8_0);
        try (GgufFile file = GgufFile.open(TestData.model("tiny-F16.gguf"));
                CpuBackend java = new CpuBackend(2, true, false, CpuKernels.JAVA);
                LanguageModel onNative = Architectures.loadLanguageModel(file, backend, q8Options);
                LanguageModel onJava = Architectures.loadLanguageModel(file, java, q8Options)) {
            for (JsonNode c : root.get("cases")) {
                for (Mode mode : Mode.values()) {
                    List<double[]> a = run(onNative, c, mode);
                    List<double[]> b = run(onJava, c, mode);
                    for (int k = 0; k < a.size(); k++) {
                        assertThat(b.get(k)).isEqualTo(a.get(k));
                    }
                }
            }
        }
    }

    /** A backend that stores only F16 refuses a Q8_0 model before uploading a weight. */
    @Test
    void aBackendWithoutQ8KvRefusesTheModelAtLoadNamingItsTypes() throws IOException {
        try (GgufFile file = GgufFile.open(TestData.model("tiny-F16.gguf"));
                CpuBackend f16Only = new CpuBackend(1) {
                    @Override
                    public java.util.Set<KvCacheType> kvCacheTypes() {
                        return java.util.EnumSet.of(KvCacheType.F16);
                    }
                }) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Architectures.loadLanguageModel(
                            file, f16Only, ModelOptions.DEFAULT.withKvCacheType(KvCacheType.Q8_0)))
                    .isInstanceOf(InvalidModelException.class)
                    .hasMessageContaining("no q8_0 KV cache")
                    .hasMessageContaining("supports f16");
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> backend.allocateKv(new int[1], new int[] {2}, 16, 48, KvCacheType.Q8_0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("whole blocks of 32");
        }
    }
}
