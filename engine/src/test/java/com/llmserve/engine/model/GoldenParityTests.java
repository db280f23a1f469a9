package com.llmserve.engine.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.backend.cpu.CpuKernels;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.kv.BlockPool;
import com.llmserve.engine.kv.BlockTable;
import com.llmserve.engine.kv.KvLayout;
import com.llmserve.engine.kv.KvPools;
import com.llmserve.engine.kv.SequenceBlocks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Teacher-forced parity with llama.cpp on every generation golden of {@code ../shared/golden}:
 * the prompt plus the golden tokens run as one batch, and the distribution after each prefix is
 * compared with the recorded one, with the tolerances of the goldens' README. Runs on the CPU
 * backend with the native kernels where they run here ({@link JavaKernelsGoldenParityTests}: the
 * Java ones); {@link GpuGoldenParityTests} runs the same cases on the GPU backend.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GoldenParityTests {

    /** Tolerances per model family, from {@code shared/golden/README.md}. */
    record Tolerance(double tokenMargin, double logprob, double prob) {}

    private Backend backend;

    /** The backend under test. */
    Backend openBackend() {
        return new CpuBackend(
                2, Boolean.parseBoolean(System.getProperty("parity.pack", "true")), false, CpuKernels.AUTO);
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
        try (var files = Files.list(TestData.golden("generation"))) {
            return Stream.concat(
                    files.filter(p -> p.toString().endsWith(".json")).sorted().toList().stream(),
                    Stream.concat(TestData.architectureGoldens().stream(), TestData.ownGoldens().stream()))
                    // -Dparity.only=NAME runs the goldens whose file names contain NAME
                    .filter(p -> p.getFileName().toString().contains(System.getProperty("parity.only", "")))
                    .map(p -> Arguments.of(p.getFileName().toString(), p))
                    .toList()
                    .stream();
        }
    }

    static Tolerance tolerance(String model) {
        if (model.equals("stories260K.gguf")) {
            return new Tolerance(0.05, 0.05, 0.005);
        }
        if (model.startsWith("stories260K-")) {
            return new Tolerance(0.3, 0.35, 0.05);
        }
        if (model.equals("tiny-F16.gguf")) {
            return new Tolerance(0.005, 0.002, 1);
        }
        if (model.endsWith("-F16.gguf")) {
            // tiny-qwen3, -qwen3moe, -gemma3: recorded by a newer llama.cpp (see the goldens' README)
            return new Tolerance(0.005, 0.004, 1);
        }
        return new Tolerance(0.03, 0.04, 1);
    }

    /**
     * How the golden tokens are fed: all in one batch (prefill kernels), or one per step (decode
     * kernels); {@code WINDOW_FREEING} (models with windowed layers only): the prompt in chunks of
     * 4, then one per step, with the engine's KV groups in blocks of 4, the windowed layers' blocks
     * given back as they leave the window and handed out again (the windowed pool as small as one
     * sequence needs).
     */
    enum Mode {
        BATCH,
        DECODE,
        WINDOW_FREEING
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("goldensAndModes")
    void teacherForcedDistributionsMatchLlamaCpp(String name, Mode mode, Path golden) throws IOException {
        JsonNode root = JsonMapper.builder().build().readTree(golden.toFile());
        String modelFile = root.get("model").asString();
        Tolerance tol = tolerance(modelFile);
        Comparison cmp = new Comparison(tol);
        try (GgufFile file = GgufFile.open(TestData.model(modelFile));
                LanguageModel model = Architectures.loadLanguageModel(file, backend, ModelOptions.DEFAULT)) {
            if (mode == Mode.WINDOW_FREEING) {
                windowFreeing(root, model, cmp);
                report(modelFile, mode, tol, cmp);
                return;
            }
            BlockPool pool = new BlockPool(64, 16);
            try (KvStorage kv = model.newKvStorage(pool.capacity(), pool.blockSize())) {
                for (JsonNode c : root.get("cases")) {
                    int[] prompt = ints(c.get("prompt_tokens"));
                    JsonNode steps = c.get("steps");
                    int[] tokens = new int[prompt.length + steps.size() - 1];
                    System.arraycopy(prompt, 0, tokens, 0, prompt.length);
                    for (int k = 0; k + 1 < steps.size(); k++) {
                        tokens[prompt.length + k] = steps.get(k).get("token").asInt();
                    }
                    BlockTable table = new BlockTable(pool);
                    assertThat(table.ensureCapacity(tokens.length)).isTrue();
                    String where = "\"" + c.get("prompt").asString() + "\" step ";
                    if (mode == Mode.BATCH) {
                        Logits logits = model.forward(
                                Batch.builder(pool.blockSize())
                                        .add(table.blocks(), 0, tokens, Batch.Logits.ALL)
                                        .build(),
                                kv);
                        for (int k = 0; k < steps.size(); k++) {
                            cmp.step(where + k, steps.get(k), logSoftmax(logits, prompt.length - 1 + k));
                        }
                    } else {
                        Logits logits = model.forward(
                                Batch.builder(pool.blockSize())
                                        .add(table.blocks(), 0, prompt, Batch.Logits.LAST)
                                        .build(),
                                kv);
                        for (int k = 0; k < steps.size(); k++) {
                            cmp.step(where + k, steps.get(k), logSoftmax(logits, 0));
                            if (k + 1 < steps.size()) {
                                int position = prompt.length + k;
                                logits = model.forward(
                                        Batch.builder(pool.blockSize())
                                                .add(
                                                        table.blocks(),
                                                        position,
                                                        new int[] {tokens[position]},
                                                        Batch.Logits.LAST)
                                                .build(),
                                        kv);
                            }
                        }
                    }
                    table.release();
                }
            }
            assertThat(pool.used()).isZero();
        }
        report(modelFile, mode, tol, cmp);
    }

    private static final int FREEING_BLOCK = 4;

    /** {@link Mode#WINDOW_FREEING}: the goldens through KV groups whose windowed blocks are given back. */
    private static void windowFreeing(JsonNode root, LanguageModel model, Comparison cmp) {
        int[] windows = new int[model.layers()];
        for (int l = 0; l < windows.length; l++) {
            windows[l] = model.slidingWindow(l);
        }
        KvLayout layout = KvLayout.of(windows, 256, FREEING_BLOCK, 1, FREEING_BLOCK, true);
        Assumptions.assumeTrue(layout.windowed(layout.groups() - 1), "no windowed layers");
        KvPools pools = new KvPools(layout, FREEING_BLOCK);
        try (KvStorage kv = layout.groups() == 1
                ? model.newKvStorage(layout.blocksOfGroup()[0], FREEING_BLOCK)
                : model.newKvStorage(layout.groupOfLayer(), layout.blocksOfGroup(), FREEING_BLOCK)) {
            for (JsonNode c : root.get("cases")) {
                int[] prompt = ints(c.get("prompt_tokens"));
                JsonNode steps = c.get("steps");
                int[] tokens = new int[prompt.length + steps.size() - 1];
                System.arraycopy(prompt, 0, tokens, 0, prompt.length);
                for (int k = 0; k + 1 < steps.size(); k++) {
                    tokens[prompt.length + k] = steps.get(k).get("token").asInt();
                }
                SequenceBlocks seq = new SequenceBlocks(pools);
                String where = "\"" + c.get("prompt").asString() + "\" (freeing) step ";
                Logits logits = null;
                for (int pos = 0; pos < prompt.length; pos += FREEING_BLOCK) {
                    int count = Math.min(FREEING_BLOCK, prompt.length - pos);
                    logits = step(model, kv, seq, tokens, pos, count);
                }
                for (int k = 0; k < steps.size(); k++) {
                    cmp.step(where + k, steps.get(k), logSoftmax(logits, 0));
                    if (k + 1 < steps.size()) {
                        logits = step(model, kv, seq, tokens, prompt.length + k, 1);
                    }
                }
                seq.release();
            }
        }
        assertThat(pools.used()).containsOnly(0L);
    }

    private static Logits step(LanguageModel model, KvStorage kv, SequenceBlocks seq, int[] tokens, int pos, int n) {
        seq.slide(pos);
        assertThat(seq.ensureCapacity(pos + n)).isTrue();
        return model.forward(
                Batch.builder(FREEING_BLOCK)
                        .add(seq.blocks(), pos, tokens, pos, n, Batch.Logits.LAST)
                        .build(),
                kv);
    }

    private void report(String modelFile, Mode mode, Tolerance tol, Comparison cmp) {
        System.out.printf(
                "parity %-4s %-28s %-6s max|dlogprob| %.5f (tol %.3f) median %.2g  max|dp| %.5f  token checks %d%n",
                backend.name(),
                modelFile,
                mode,
                cmp.worstLogprob,
                tol.logprob(),
                cmp.median(),
                cmp.worstProb,
                cmp.tokenChecks);
        assertThat(cmp.failures).as(modelFile).isEmpty();
    }

    static Stream<Arguments> goldensAndModes() throws IOException {
        return goldens().flatMap(a -> Stream.of(Mode.values()).map(m -> Arguments.of(a.get()[0], m, a.get()[1])));
    }

    /** Checks one step against its golden record and keeps the worst differences. */
    private static final class Comparison {
        final Tolerance tol;
        final List<String> failures = new ArrayList<>();
        double worstLogprob;
        double worstProb;
        int tokenChecks;
        final List<Double> deltas = new ArrayList<>();

        Comparison(Tolerance tol) {
            this.tol = tol;
        }

        double median() {
            List<Double> sorted = deltas.stream().sorted().toList();
            return sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
        }

        void step(String where, JsonNode step, double[] logprobs) {
            if (step.get("logit_margin").asDouble() >= tol.tokenMargin()) {
                tokenChecks++;
                int argmax = argmax(logprobs);
                if (argmax != step.get("token").asInt()) {
                    failures.add(where + ": argmax " + argmax + " but llama.cpp chose "
                            + step.get("token").asInt() + " (margin "
                            + step.get("logit_margin").asDouble() + ")");
                }
            }
            JsonNode top = step.get("top");
            JsonNode topLogprob = step.get("top_logprob");
            for (int i = 0; i < top.size(); i++) {
                int id = top.get(i).get(0).asInt();
                double expected = topLogprob.get(i).asDouble();
                double dl = Math.abs(logprobs[id] - expected);
                double dp = Math.abs(Math.exp(logprobs[id]) - Math.exp(expected));
                worstLogprob = Math.max(worstLogprob, dl);
                deltas.add(dl);
                worstProb = Math.max(worstProb, dp);
                if (dl > tol.logprob() || dp > tol.prob()) {
                    failures.add(where + ": token " + id + " logprob " + logprobs[id] + " vs " + expected);
                }
            }
        }
    }

    static double[] logSoftmax(Logits logits, int row) {
        float[] a = logits.array();
        int o = logits.offset(row);
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < logits.vocabSize(); i++) {
            max = Math.max(max, a[o + i]);
        }
        double sum = 0;
        for (int i = 0; i < logits.vocabSize(); i++) {
            sum += Math.exp(a[o + i] - max);
        }
        double lse = max + Math.log(sum);
        double[] out = new double[logits.vocabSize()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a[o + i] - lse;
        }
        return out;
    }

    static int argmax(double[] v) {
        int best = 0;
        for (int i = 1; i < v.length; i++) {
            if (v[i] > v[best]) {
                best = i;
            }
        }
        return best;
    }

    static int[] ints(JsonNode array) {
        int[] out = new int[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asInt();
        }
        return out;
    }
}
