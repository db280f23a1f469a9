package com.llmserve.engine.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.backend.gpu.GpuBackend;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.kv.BlockPool;
import com.llmserve.engine.kv.BlockTable;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RequiresGpu;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The GPU backend against the CPU backend on every llama-family model of {@code ../shared/models}:
 * the CPU decodes greedily, the GPU runs the same tokens (teacher forcing), and each step's logits
 * are compared. Greedy choices must agree wherever the CPU's top-1/top-2 margin is clear; the
 * largest logit difference is reported and bounded. Also: graph replay against plain launches,
 * and sequences batched on the GPU against their solo runs.
 */
@RequiresGpu
class GpuModelParityTests {

    private static final int STEPS = 24;
    /** A margin beyond the kernels' rounding differences (typically below 0.01 logits). */
    private static final double CLEAR_MARGIN = 0.1;

    private static DevicePool pool;
    private static CpuBackend cpu;

    @BeforeAll
    static void open(DevicePool devices) {
        pool = devices;
        cpu = new CpuBackend(2);
    }

    @AfterAll
    static void close() {
        if (cpu != null) {
            cpu.close();
        }
    }

    @ParameterizedTest
    @MethodSource("com.llmserve.engine.TestData#decoderModels")
    void greedyDecodingAgreesWithTheCpuBackend(String modelFile) throws IOException {
        // 40 tokens: the prompt takes the BLAS products and the tiled attention, the steps after it
        // the GEMV kernels, per-row attention and graphs
        int[] prompt = new int[40];
        prompt[0] = 1;
        for (int i = 1; i < prompt.length; i++) {
            prompt[i] = 100 + (i * 37) % 400;
        }
        try (GgufFile file = GgufFile.open(TestData.model(modelFile));
                GpuBackend gpu = GpuBackend.open(pool.device(0), GpuOptions.defaults())) {
            Run ref = decode(file, cpu, prompt, null);
            Run got = decode(file, gpu, prompt, ref.tokens);
            Run free = decode(file, gpu, prompt, null);
            int clear = 0;
            int agree = 0;
            double maxDiff = 0;
            double maxLogit = 0;
            for (int s = 0; s < STEPS; s++) {
                float[] a = ref.logits.get(s);
                float[] b = got.logits.get(s);
                for (int i = 0; i < a.length; i++) {
                    maxDiff = Math.max(maxDiff, Math.abs(a[i] - b[i]));
                    maxLogit = Math.max(maxLogit, Math.abs(a[i]));
                }
                if (margin(a) >= CLEAR_MARGIN) {
                    clear++;
                    if (argmax(a) == argmax(b)) {
                        agree++;
                    }
                }
            }
            int same = 0;
            while (same < STEPS && free.tokens[same] == ref.tokens[same]) {
                same++;
            }
            System.out.printf(
                    "[gpu-report] model parity %-26s greedy agreement %2d/%2d clear-margin steps, max |dlogit| %.5f"
                            + " (max |logit| %.2f), free-running identical tokens %d/%d, %s%n",
                    modelFile, agree, clear, maxDiff, maxLogit, same, STEPS, gpu.stats());
            assertThat(agree).as(modelFile + " greedy agreement").isEqualTo(clear);
            assertThat(maxDiff).as(modelFile + " max logit difference").isLessThan(0.05 * Math.max(1, maxLogit));
        }
    }

    /**
     * Greedy steps each issued before the one before it is read, taking its token where the device
     * chose it, give the tokens and best logits of steps read one by one, bit for bit.
     */
    @ParameterizedTest
    @MethodSource("com.llmserve.engine.TestData#decoderModels")
    void overlappedGreedyStepsGiveTheTokensOfStepsReadOneByOne(String modelFile) throws IOException {
        int[] prompt = {1, 403, 407, 261, 378, 300, 301};
        try (GgufFile file = GgufFile.open(TestData.model(modelFile));
                GpuBackend gpu = GpuBackend.open(pool.device(0), GpuOptions.defaults());
                LanguageModel model = Architectures.loadLanguageModel(file, gpu, ModelOptions.DEFAULT)) {
            assertThat(model.submitsAhead()).isTrue();
            BlockPool blocks = new BlockPool(32, 16);
            try (KvStorage kv = model.newKvStorage(blocks.capacity(), blocks.blockSize())) {
                float[][] oneByOne = new float[2][STEPS];
                int[][] tokens = new int[2][STEPS];
                for (int run = 0; run < 2; run++) {
                    BlockTable table = new BlockTable(blocks);
                    assertThat(table.ensureCapacity(prompt.length + STEPS)).isTrue();
                    Batch first = Batch.builder(16)
                            .add(table.blocks(), 0, prompt, Batch.Logits.LAST)
                            .build();
                    PendingLogits pending = model.submit(first, kv, 1, null);
                    for (int s = 0; s < STEPS; s++) {
                        PendingLogits next = null;
                        if (run == 1 && s + 1 < STEPS) { // issued before step s is read
                            next = model.submit(
                                    Batch.builder(16)
                                            .addChoice(table.blocks(), prompt.length + s, 0, Batch.Logits.LAST)
                                            .build(),
                                    kv,
                                    1,
                                    null);
                        }
                        Logits l = pending.await();
                        tokens[run][s] = l.best(0);
                        oneByOne[run][s] = l.topValues()[0];
                        if (run == 0 && s + 1 < STEPS) {
                            next = model.submit(
                                    Batch.builder(16)
                                            .add(
                                                    table.blocks(),
                                                    prompt.length + s,
                                                    new int[] {tokens[run][s]},
                                                    Batch.Logits.LAST)
                                            .build(),
                                    kv,
                                    1,
                                    null);
                        }
                        pending = next;
                    }
                    table.release();
                }
                System.out.printf(
                        "[gpu-report] overlapped steps %-26s %d tokens, identical to steps read one by one: %s%n",
                        modelFile, STEPS, Arrays.equals(tokens[0], tokens[1]));
                assertThat(tokens[1]).containsExactly(tokens[0]);
                assertThat(oneByOne[1]).containsExactly(oneByOne[0]);
            }
        }
    }

    @Test
    void graphReplayGivesTheLogitsOfPlainLaunches() throws IOException {
        int[] prompt = {1, 403, 407, 261, 378};
        try (GgufFile file = GgufFile.open(TestData.model("tiny-Q4_0.gguf"));
                GpuBackend graphs = GpuBackend.open(pool.device(0), GpuOptions.defaults());
                GpuBackend plain =
                        GpuBackend.open(pool.device(0), GpuOptions.defaults().withGraphs(false))) {
            Run a = decode(file, graphs, prompt, null);
            Run b = decode(file, plain, prompt, a.tokens);
            for (int s = 0; s < STEPS; s++) {
                // bucket padding changes the prompt step's attention splits, so the sums differ in the last bits
                assertThat(b.logits.get(s)).as("step " + s).containsExactly(a.logits.get(s), within(1e-3f));
            }
            assertThat(graphs.stats().graphReplays()).isGreaterThanOrEqualTo(STEPS);
            assertThat(plain.stats().graphReplays()).isZero();
            System.out.printf(
                    "[gpu-report] graph replay equals plain launches over %d steps: %s%n", STEPS, graphs.stats());
        }
    }

    @Test
    void sequencesBatchedOnTheGpuMatchTheirSoloRuns() throws IOException {
        int[][] prompts = {
            {1, 403, 407, 261, 378}, {1, 365, 268, 471, 421, 349, 267, 287, 299, 500, 334, 289, 378, 44}, {1, 400}
        };
        // the GEMV for every row count here: from Matmul.HALF_COPY_MIN_ROWS (12) rows a batch would take
        // the BLAS over half copies, from gemm-min-rows (32) the tensor cores, whose rounding a solo
        // prompt of fewer rows does not share (those paths' own tolerances against the CPU:
        // GpuBackendTests)
        try (GgufFile file = GgufFile.open(TestData.model("tiny-Q8_0.gguf"));
                GpuBackend gpu = GpuBackend.open(
                        pool.device(0),
                        GpuOptions.defaults().withHalfWeights(false).withMmqMaxRows(0));
                LanguageModel model = Architectures.loadLanguageModel(file, gpu, ModelOptions.DEFAULT)) {
            BlockPool blocks = new BlockPool(64, 16);
            try (KvStorage kv = model.newKvStorage(blocks.capacity(), blocks.blockSize())) {
                List<float[]> solo = new ArrayList<>();
                for (int[] p : prompts) {
                    BlockTable t = new BlockTable(blocks);
                    t.ensureCapacity(p.length);
                    solo.add(model.forward(
                                    Batch.builder(16)
                                            .add(t.blocks(), 0, p, Batch.Logits.LAST)
                                            .build(),
                                    kv)
                            .row(0));
                    t.release();
                }
                Batch.Builder together = Batch.builder(16);
                List<BlockTable> tables = new ArrayList<>();
                for (int[] p : prompts) {
                    BlockTable t = new BlockTable(blocks);
                    t.ensureCapacity(p.length);
                    tables.add(t);
                    together.add(t.blocks(), 0, p, Batch.Logits.LAST);
                }
                Logits logits = model.forward(together.build(), kv);
                double worst = 0;
                for (int s = 0; s < prompts.length; s++) {
                    float[] a = solo.get(s);
                    float[] b = logits.row(s);
                    for (int i = 0; i < a.length; i++) {
                        worst = Math.max(worst, Math.abs(a[i] - b[i]));
                    }
                }
                tables.forEach(BlockTable::release);
                System.out.printf("[gpu-report] batched vs solo prefill on the GPU: max |dlogit| %.2e%n", worst);
                assertThat(worst).isLessThan(5e-3);
            }
        }
    }

    /** Tokens and per-step logits of a greedy decode, or of a teacher-forced one when {@code forced} is given. */
    private record Run(int[] tokens, List<float[]> logits) {}

    private static Run decode(GgufFile file, Backend be, int[] prompt, int[] forced) {
        try (LanguageModel model = Architectures.loadLanguageModel(file, be, ModelOptions.DEFAULT)) {
            BlockPool blocks = new BlockPool(32, 16);
            try (KvStorage kv = model.newKvStorage(blocks.capacity(), blocks.blockSize())) {
                BlockTable table = new BlockTable(blocks);
                assertThat(table.ensureCapacity(prompt.length + STEPS)).isTrue();
                int[] tokens = new int[STEPS];
                List<float[]> logits = new ArrayList<>();
                Logits l = model.forward(
                        Batch.builder(16)
                                .add(table.blocks(), 0, prompt, Batch.Logits.LAST)
                                .build(),
                        kv);
                for (int s = 0; s < STEPS; s++) {
                    float[] row = l.row(0);
                    logits.add(row);
                    tokens[s] = forced != null ? forced[s] : argmax(row);
                    if (s + 1 < STEPS) {
                        l = model.forward(
                                Batch.builder(16)
                                        .add(
                                                table.blocks(),
                                                prompt.length + s,
                                                new int[] {tokens[s]},
                                                Batch.Logits.LAST)
                                        .build(),
                                kv);
                    }
                }
                table.release();
                return new Run(tokens, logits);
            }
        }
    }

    private static int argmax(float[] v) {
        int best = 0;
        for (int i = 1; i < v.length; i++) {
            if (v[i] > v[best]) {
                best = i;
            }
        }
        return best;
    }

    private static double margin(float[] v) {
        int best = argmax(v);
        float second = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < v.length; i++) {
            if (i != best) {
                second = Math.max(second, v[i]);
            }
        }
        return v[best] - second;
    }
}
