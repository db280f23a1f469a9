package com.llmserve.engine.backend.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.Gating;
import com.llmserve.engine.backend.Glu;
import com.llmserve.engine.backend.Pooling;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.backend.Step;
import com.llmserve.engine.backend.Unary;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufTensor;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The activation-side operations of the CPU backend against plain formulas. */
class CpuBackendTests {

    private static CpuBackend backend;

    @BeforeAll
    static void start() {
        backend = new CpuBackend(2);
    }

    @AfterAll
    static void stop() {
        backend.close();
    }

    /** Every test runs its operations in a step of its own; a test that needs a batch opens another. */
    private Step step;

    @BeforeEach
    void openStep() {
        step = backend.beginStep();
    }

    @AfterEach
    void closeStep() {
        step.close();
    }

    @Test
    void fusedPartsWithRaggedRowCountsMultiplyLikeEachPartAlone() {
        // 20 + 45 rows: the second part's tiles start inside the fused matrix's tiles
        Random r = new Random(5);
        int cols = 256;
        GgufTensor a = tensor("a", GgmlType.Q4_0, 20, cols, r);
        GgufTensor b = tensor("b", GgmlType.Q4_0, 45, cols, r);
        for (int tokens : new int[] {1, 6}) {
            float[] x = gaussian(tokens * cols, r);
            try (Weight fused = backend.uploadMatrix("ab", List.of(a, b));
                    Weight wa = backend.uploadMatrix(a);
                    Weight wb = backend.uploadMatrix(b)) {
                float[] y = product(fused, x, tokens, cols, 65);
                float[] ya = product(wa, x, tokens, cols, 20);
                float[] yb = product(wb, x, tokens, cols, 45);
                for (int t = 0; t < tokens; t++) {
                    for (int i = 0; i < 20; i++) {
                        assertThat(y[t * 65 + i]).isEqualTo(ya[t * 20 + i]);
                    }
                    for (int i = 0; i < 45; i++) {
                        assertThat(y[t * 65 + 20 + i]).isEqualTo(yb[t * 45 + i]);
                    }
                }
            }
        }
    }

    @Test
    void topKTakesTheLargestOfEachRowBestFirstWithTiesToTheLowerColumn() {
        Random r = new Random(5);
        int n = 3;
        int cols = 1000;
        float[] x = new float[n * cols];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) r.nextGaussian();
        }
        x[cols + 400] = x[cols + 17] = x[cols + 900] = 9f; // a three-way tie at the top of row 1
        x[2 * cols + 999] = Float.NEGATIVE_INFINITY;
        int k = 4;
        int at = 5;
        int[] ids = new int[at + n * k];
        float[] values = new float[at + n * k];
        backend.topK(activations(x, n, cols), n, k, ids, values, at);
        for (int t = 0; t < n; t++) {
            int row = t;
            int[] sorted = java.util.stream.IntStream.range(0, cols)
                    .boxed()
                    .sorted((i, j) -> Float.compare(x[row * cols + j], x[row * cols + i]))
                    .mapToInt(Integer::intValue)
                    .toArray();
            for (int j = 0; j < k; j++) {
                assertThat(ids[at + t * k + j]).as("row %d rank %d", t, j).isEqualTo(sorted[j]);
                assertThat(values[at + t * k + j]).isEqualTo(x[t * cols + sorted[j]]);
            }
        }
        assertThat(java.util.Arrays.copyOfRange(ids, at + k, at + k + 3)).containsExactly(17, 400, 900);
        assertThat(ids[0]).as("nothing before at").isZero();
    }

    @Test
    void maskedTopKChoosesAmongAllowedColumnsOnly() {
        Random r = new Random(6);
        int n = 3;
        int cols = 300;
        float[] x = new float[n * cols];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) r.nextGaussian();
        }
        long[][] allowed = new long[n][];
        allowed[0] = new long[(cols + 63) / 64];
        for (int c = 0; c < cols; c += 7) {
            allowed[0][c >>> 6] |= 1L << c; // every 7th column
        }
        allowed[2] = new long[(cols + 63) / 64]; // nothing: the row's ids fall outside the vocabulary
        allowed[2][0] = 1L << 5; // ... but for column 5: one id, then none
        int k = 3;
        int[] ids = new int[n * k];
        float[] values = new float[n * k];
        backend.topK(activations(x, n, cols), n, k, ids, values, 0, Backend.packMasks(allowed, 0, n, cols));
        for (int t = 0; t < 2; t++) {
            int row = t;
            int[] sorted = java.util.stream.IntStream.range(0, cols)
                    .filter(c -> row == 1 || c % 7 == 0)
                    .boxed()
                    .sorted((i, j) -> Float.compare(x[row * cols + j], x[row * cols + i]))
                    .mapToInt(Integer::intValue)
                    .toArray();
            assertThat(java.util.Arrays.copyOfRange(ids, t * k, t * k + k))
                    .containsExactly(sorted[0], sorted[1], sorted[2]);
        }
        assertThat(java.util.Arrays.copyOfRange(ids, 2 * k, 3 * k))
                .containsExactly(5, Integer.MAX_VALUE, Integer.MAX_VALUE);
        assertThat(values[2 * k + 1]).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(Backend.packMasks(new long[n][], 0, n, cols))
                .as("no row masked: no masks")
                .isNull();
    }

    @Test
    void topKRefusesAKOutsideItsRange() {
        Activations a = backend.allocate(1, 8);
        assertThatThrownBy(() -> backend.topK(a, 1, 0, new int[8], new float[8], 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> backend.topK(a, 1, 9, new int[9], new float[9], 0))
                .hasMessageContaining("[1, 8]");
        assertThatThrownBy(() -> backend.topK(a, 1, 4, new int[3], new float[3], 0))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void rmsNormScalesEachRowByItsRootMeanSquare() {
        float[] x = {1, 2, 3, 4, -1, -1, -1, -1};
        Weight w = vector(new float[] {1, 0.5f, 2, 1});
        Activations in = activations(x, 2, 4);
        Activations out = backend.allocate(2, 4);
        backend.rmsNorm(in, w, 1e-6f, 2, out);
        float[] y = read(out, 2);
        double rms = Math.sqrt((1 + 4 + 9 + 16) / 4.0 + 1e-6);
        assertThat(y[0]).isCloseTo((float) (1 / rms), within(1e-6f));
        assertThat(y[1]).isCloseTo((float) (2 / rms * 0.5), within(1e-6f));
        assertThat(y[2]).isCloseTo((float) (3 / rms * 2), within(1e-6f));
        assertThat(y[4]).isCloseTo((float) (-1 / Math.sqrt(1 + 1e-6)), within(1e-6f));
    }

    @Test
    void layerNormCentresScalesAndShifts() {
        float[] x = {1, 2, 3, 6};
        Activations out = backend.allocate(1, 4);
        backend.layerNorm(
                activations(x, 1, 4), vector(new float[] {1, 1, 2, 1}), vector(new float[] {0, 1, 0, 0}), 0f, 1, out);
        float[] y = read(out, 1);
        double mean = 3;
        double sd = Math.sqrt((4 + 1 + 0 + 9) / 4.0);
        assertThat(y[0]).isCloseTo((float) ((1 - mean) / sd), within(1e-6f));
        assertThat(y[1]).isCloseTo((float) ((2 - mean) / sd + 1), within(1e-6f));
        assertThat(y[2]).isCloseTo((float) (0 * 2), within(1e-6f));
    }

    @Test
    void swiGluGatesTheUpHalfWithSiluOfTheGateHalf() {
        float[] gu = new float[2 * 40];
        Random r = new Random(1);
        for (int i = 0; i < gu.length; i++) {
            gu[i] = (float) r.nextGaussian() * 3;
        }
        Activations out = backend.allocate(1, 40);
        backend.swiGlu(activations(gu, 1, 80), 1, out);
        float[] y = read(out, 1);
        for (int i = 0; i < 40; i++) {
            double g = gu[i];
            assertThat(y[i]).isCloseTo((float) (g / (1 + Math.exp(-g)) * gu[40 + i]), within(1e-5f));
        }
    }

    @Test
    void geGluGatesTheUpHalfWithTheTanhGeluOfTheGateHalf() {
        float[] gu = gaussian(2 * 40, new Random(2));
        gu[3] = -12f; // below -10: gelu is 0
        gu[5] = 11f; // at or above 10: gelu is the gate itself
        Activations out = backend.allocate(1, 40);
        backend.glu(Glu.GELU, activations(gu, 1, 80), 1, out);
        float[] y = read(out, 1);
        for (int i = 0; i < 40; i++) {
            double g = gu[i];
            double gelu = 0.5 * g * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * g * (1 + 0.044715 * g * g)));
            // ggml's table of halves: the gelu is rounded to half precision
            assertThat(y[i]).isCloseTo((float) (gelu * gu[40 + i]), within(2e-3f * (1 + Math.abs(gu[40 + i]))));
        }
        assertThat(y[3]).isZero();
        assertThat(y[5]).isEqualTo(11f * gu[45]);
    }

    @Test
    void headRmsNormNormalizesEachHeadInPlaceWithTheSharedWeight() {
        int heads = 3;
        int hd = 8;
        int col = 5; // heads start past the first columns, as keys follow the queries in q|k|v
        int cols = col + heads * hd + 2;
        float[] x = gaussian(2 * cols, new Random(3));
        float[] w = gaussian(hd, new Random(4));
        Activations a = activations(x, 2, cols);
        backend.headRmsNorm(a, col, heads, hd, vector(w), 1e-6f, 2);
        float[] y = read(a, 2);
        for (int t = 0; t < 2; t++) {
            for (int c = 0; c < cols; c++) {
                int i = t * cols + c;
                int h = (c - col) / hd;
                if (c < col || h >= heads) {
                    assertThat(y[i]).as("column %d is not a head's", c).isEqualTo(x[i]);
                    continue;
                }
                int start = t * cols + col + h * hd;
                double ss = 0;
                for (int j = 0; j < hd; j++) {
                    ss += (double) x[start + j] * x[start + j];
                }
                double expected = x[i] / Math.sqrt(ss / hd + 1e-6) * w[(c - col) % hd];
                assertThat(y[i]).isCloseTo((float) expected, within(1e-5f));
            }
        }
    }

    @Test
    void routeExpertsTakesTheMostLikelyExpertsWithRenormalizedWeights() {
        // row 0 is skipped (first = 1); row 1 ties experts 1 and 3: the lower id comes first
        Activations logits = activations(new float[] {9, 9, 9, 9, 1, 3, 2, 3, 2, 0, 1, -1}, 3, 4);
        Activations routing = backend.allocate(2, 4);
        backend.routeExperts(logits, 1, 2, 2f, routing);
        float[] r = read(routing, 2);
        assertThat(Arrays.copyOfRange(r, 0, 2)).containsExactly(1, 3);
        assertThat(r[2]).isCloseTo(1f, within(1e-6f)); // equal probabilities, each half of their sum, times 2
        assertThat(r[3]).isCloseTo(1f, within(1e-6f));
        assertThat(Arrays.copyOfRange(r, 4, 6)).containsExactly(0, 2);
        double e2 = Math.exp(2);
        double e1 = Math.exp(1);
        assertThat(r[6]).isCloseTo((float) (2 * e2 / (e2 + e1)), within(1e-6f));
        assertThat(r[7]).isCloseTo((float) (2 * e1 / (e2 + e1)), within(1e-6f));
        assertThatThrownBy(() -> backend.routeExperts(logits, 0, 2, 1f, backend.allocate(2, 3)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("even");
    }

    @Test
    void softmaxOfTopKChoosesByLogitAndWeightsBySoftmaxOverTheChosen() {
        // row 0: experts 1 and 3 tie at 3, the lower first, then 2; row 1: 1 (2.0), 3 (1.0), 0 (0.5)
        Activations logits = activations(new float[] {1, 3, 2, 3, 0, 0.5f, 2, -1, 1, 0.25f}, 2, 5);
        Activations routing = backend.allocate(2, 6);
        backend.routeExperts(logits, 0, 2, 1f, Gating.SOFTMAX_OF_TOP_K, routing);
        float[] r = read(routing, 2);
        assertThat(Arrays.copyOfRange(r, 0, 3)).containsExactly(1, 3, 2);
        double z0 = 2 * Math.exp(3) + Math.exp(2);
        assertThat(r[3]).isCloseTo((float) (Math.exp(3) / z0), within(1e-6f));
        assertThat(r[4]).isCloseTo((float) (Math.exp(3) / z0), within(1e-6f));
        assertThat(r[5]).isCloseTo((float) (Math.exp(2) / z0), within(1e-6f));
        assertThat(Arrays.copyOfRange(r, 6, 9)).containsExactly(1, 3, 0);
        double z1 = Math.exp(2) + Math.exp(1) + Math.exp(0.5);
        assertThat(r[9]).isCloseTo((float) (Math.exp(2) / z1), within(1e-6f));
        assertThat(r[10]).isCloseTo((float) (Math.exp(1) / z1), within(1e-6f));
        assertThat(r[11]).isCloseTo((float) (Math.exp(0.5) / z1), within(1e-6f));
        // the softmax over every expert, then renormalized, weighs the same experts the same
        Activations softmax = backend.allocate(2, 6);
        backend.routeExperts(logits, 0, 2, 1f, Gating.SOFTMAX, softmax);
        float[] s = read(softmax, 2);
        for (int i = 0; i < 12; i++) {
            assertThat(s[i]).isCloseTo(r[i], within(1e-6f));
        }
    }

    @Test
    void expertBiasesAddEachPairsExpertsRowAtItsColumns() {
        // 2 tokens x 2 slots; biases of 3 experts, 2 values each, at columns 1..2 of rows of 4;
        // pair 3 names expert 5, which has no bias: it is left alone
        Activations routing = activations(new float[] {2, 0, 0.5f, 0.5f, 1, 5, 0.5f, 0.5f}, 2, 4);
        Activations y = activations(new float[16], 4, 4);
        Weight bias = vector(new float[] {1, 2, 10, 20, 100, 200});
        backend.addExpertBias(y, 1, 2, bias, routing, 2);
        assertThat(read(y, 4)).containsExactly(0, 100, 200, 0, 0, 1, 2, 0, 0, 10, 20, 0, 0, 0, 0, 0);
        assertThatThrownBy(() -> backend.addExpertBias(y, 3, 2, bias, routing, 2))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void swiGluOaiClampsBothHalvesAndGatesAsGgml() {
        float[] gu = gaussian(2 * 40, new Random(3));
        for (int i = 0; i < gu.length; i++) {
            gu[i] *= 6; // many beyond the limit of 7
        }
        gu[0] = 9f; // gate clamped to 7
        gu[1] = -9f; // a negative gate is not clamped
        gu[40] = 8f; // up clamped to 7
        gu[41] = -8f; // and to -7
        Activations out = backend.allocate(1, 40);
        backend.glu(Glu.SWIGLU_OAI, activations(gu, 1, 80), 1, out);
        float[] y = read(out, 1);
        for (int i = 0; i < 40; i++) {
            double x = Math.min(gu[i], 7.0);
            double up = Math.max(-7.0, Math.min(7.0, gu[40 + i]));
            double expected = x / (1 + Math.exp(-1.702 * x)) * (up + 1);
            assertThat(y[i])
                    .as("column %d", i)
                    .isCloseTo((float) expected, within(1e-5f * (1 + Math.abs((float) expected))));
        }
        assertThat(y[0]).isCloseTo((float) (7 / (1 + Math.exp(-1.702 * 7)) * (7 + 1)), within(1e-4f));
        assertThat(y[1]).isCloseTo((float) (-9 / (1 + Math.exp(1.702 * 9)) * (-7 + 1)), within(1e-6f));
    }

    @Test
    void cachedAttentionWithSinksAddsEachHeadsSinkToTheDenominator() {
        step.close();
        int heads = 4;
        int kvHeads = 2;
        int hd = 8;
        int n = 6;
        float[] sinks = {0.5f, -1f, 2f, 0f};
        AttentionShape shape = new AttentionShape(heads, kvHeads, hd, 0.35f, true, 0).withSinks(sinks);
        int width = shape.queryDim() + 2 * shape.kvDim();
        float[] qkv = gaussian(n * width, new Random(11));
        Batch batch = Batch.builder(4)
                .add(new int[] {1, 0}, 0, new int[n], Batch.Logits.LAST)
                .build();
        float[] withSinks;
        float[] without;
        try (var kv = backend.allocateKv(1, 2, 4, shape.kvDim())) {
            step = backend.beginStep(batch);
            Activations out = backend.allocate(n, shape.queryDim());
            backend.attention(activations(qkv, n, width), kv, 0, n, shape, out);
            withSinks = read(out, n);
            backend.attention(activations(qkv, n, width), kv, 0, n, shape.withSinks(null), out);
            without = read(out, n);
        }
        double maxChange = 0;
        for (int t = 0; t < n; t++) {
            for (int h = 0; h < heads; h++) {
                int kvh = h / (heads / kvHeads);
                double[] s = new double[t + 1];
                double max = sinks[h];
                for (int p = 0; p <= t; p++) {
                    double dot = 0;
                    for (int i = 0; i < hd; i++) {
                        dot += half(qkv[t * width + h * hd + i]) * half(qkv[p * width + shape.keyCol() + kvh * hd + i]);
                    }
                    s[p] = dot * 0.35;
                    max = Math.max(max, s[p]);
                }
                double sum = Math.exp(sinks[h] - max);
                for (int p = 0; p <= t; p++) {
                    sum += Math.exp(s[p] - max);
                }
                for (int i = 0; i < hd; i++) {
                    double o = 0;
                    for (int p = 0; p <= t; p++) {
                        o += Math.exp(s[p] - max) / sum * half(qkv[p * width + shape.valueCol() + kvh * hd + i]);
                    }
                    int at = t * shape.queryDim() + h * hd + i;
                    assertThat((double) withSinks[at])
                            .as("row %d head %d dim %d", t, h, i)
                            .isCloseTo(o, within(2e-3));
                    maxChange = Math.max(maxChange, Math.abs(withSinks[at] - without[at]));
                }
            }
        }
        assertThat(maxChange).as("the sinks change the output").isGreaterThan(0.05);
    }

    @ParameterizedTest(name = "{0}/{1} heads of {2}, window {3}, soft-cap {4}, sinks {5}")
    @CsvSource({"8, 2, 64, 0, 0, false", "16, 4, 128, 24, 0, true", "4, 4, 64, 0, 30, false", "8, 1, 256, 0, 0, false"})
    void cachedAttentionOnTheNativeKernelsGivesARowTheSameBitsInAnyRunAndMatchesTheJavaPath(
            int heads, int kvHeads, int hd, int window, float softcap, boolean sinks) {
        assumeTrue(NativeKernels.best().isPresent(), () -> "no native kernels here: " + NativeKernels.unavailable());
        step.close();
        AttentionShape shape = new AttentionShape(heads, kvHeads, hd, 0.2f, true, window, softcap);
        if (sinks) {
            shape = shape.withSinks(gaussian(heads, new Random(5)));
        }
        int n = 40;
        int width = shape.queryDim() + 2 * shape.kvDim();
        float[] qkv = gaussian(n * width, new Random(hd + heads));
        try (CpuBackend nat = new CpuBackend(2, true, false, CpuKernels.NATIVE);
                CpuBackend java = new CpuBackend(2, true, false, CpuKernels.JAVA)) {
            float[] together = attendPrompt(nat, shape, qkv, n, false);
            float[] oneByOne = attendPrompt(nat, shape, qkv, n, true);
            assertThat(oneByOne).as("rows alone and in runs of 16").containsExactly(together);
            float[] portable = attendPrompt(java, shape, qkv, n, false);
            double err = 0;
            double norm = 0;
            for (int i = 0; i < together.length; i++) {
                err += (double) (together[i] - portable[i]) * (together[i] - portable[i]);
                norm += (double) portable[i] * portable[i];
            }
            assertThat(Math.sqrt(err / norm)).as("against the Java path").isLessThan(1e-3);
        }
        step = backend.beginStep();
    }

    /** Attention over a prompt of {@code n} rows of {@code qkv}: in one step, or a step per row. */
    private static float[] attendPrompt(CpuBackend b, AttentionShape shape, float[] qkv, int n, boolean rowByRow) {
        int width = shape.queryDim() + 2 * shape.kvDim();
        int[] table = {3, 0, 2, 1};
        float[] out = new float[n * shape.queryDim()];
        try (var kv = b.allocateKv(1, table.length, 16, shape.kvDim())) {
            for (int t0 = 0; t0 < n; t0 += rowByRow ? 1 : n) {
                int rows = rowByRow ? 1 : n;
                Batch batch = Batch.builder(16)
                        .add(table, t0, new int[rows], Batch.Logits.LAST)
                        .build();
                try (Step s = b.beginStep(batch)) {
                    Activations in = b.allocate(rows, width);
                    b.write(qkv, t0 * width, rows, in);
                    Activations o = b.allocate(rows, shape.queryDim());
                    b.attention(in, kv, 0, rows, shape, o);
                    b.read(o, rows, out, t0 * shape.queryDim());
                }
            }
        }
        return out;
    }

    @Test
    void encoderAttentionRefusesSinks() {
        AttentionShape shape = new AttentionShape(2, 2, 4, 0.5f, false, 0).withSinks(new float[] {0, 0});
        Activations qkv = backend.allocate(2, 24);
        assertThatThrownBy(() -> backend.encoderAttention(qkv, new int[] {0, 2}, 1, shape, backend.allocate(2, 8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sinks");
    }

    private static double half(float v) {
        return Float.float16ToFloat(Float.floatToFloat16(v));
    }

    @ParameterizedTest
    @CsvSource({"F32, 2", "Q8_0, 64"})
    void expertMatmulMultipliesEachPairByItsExpertsRowsOfEveryStack(GgmlType bType, int bRows) {
        // 3 experts; stack a (packed Q8_0) has 32 rows per expert, stack b bRows: expert e's matrix is
        // a's rows of e, then b's. 4 tokens x 2 slots: expert 1 has 4 pairs (the tiled product), the
        // others 1 or 2, and pair 7 names no expert (3 of 3): it is skipped. An F32 stack keeps the
        // weight on the Java kernels; with Q8_0 stacks every expert's tiles run in one native job.
        int width = 32 + bRows;
        Random r = new Random(9);
        int k = 64;
        GgufTensor a = stack("a", GgmlType.Q8_0, k, 32, 3, r);
        GgufTensor b = stack("b", bType, k, bRows, 3, r);
        Weight w = backend.uploadExperts("experts", List.of(a, b));
        assertThat(w.experts()).isEqualTo(3);
        assertThat(w.rows()).isEqualTo(width);
        float[] x = gaussian(5 * k, r);
        int[] expert = {2, 1, 0, 1, 1, 2, 1, 3};
        int tokens = 4;
        float[] ids = new float[tokens * 4];
        for (int p = 0; p < expert.length; p++) {
            ids[(p / 2) * 4 + p % 2] = expert[p];
        }
        Activations routing = activations(ids, tokens, 4);
        float[] untouched = new float[8 * width];
        Arrays.fill(untouched, 7f);
        for (boolean perPair : new boolean[] {false, true}) {
            // tokens read rows 1..4; pairs read their own row p
            Activations in = perPair ? activations(gaussian(8 * k, r), 8, k) : activations(x, 5, k);
            float[] xs = read(in, in.rows());
            Activations out = activations(untouched, 8, width);
            backend.expertMatmul(w, routing, tokens, 1, perPair, in, out);
            float[] y = read(out, 8);
            for (int e = 0; e < 3; e++) {
                // the expert's rows multiplied as plain matrices, over the same rows in the same order
                List<Integer> mine = new java.util.ArrayList<>();
                for (int p = 0; p < expert.length; p++) {
                    if (expert[p] == e) {
                        mine.add(p);
                    }
                }
                float[] xe = new float[mine.size() * k];
                for (int i = 0; i < mine.size(); i++) {
                    int row = perPair ? mine.get(i) : 1 + mine.get(i) / 2;
                    System.arraycopy(xs, row * k, xe, i * k, k);
                }
                float[] ya = product(backend.uploadMatrix(rows(a, e * 32, 32)), xe, mine.size(), k, 32);
                float[] yb = product(backend.uploadMatrix(rows(b, e * bRows, bRows)), xe, mine.size(), k, bRows);
                for (int i = 0; i < mine.size(); i++) {
                    int p = mine.get(i);
                    for (int j = 0; j < 32; j++) {
                        assertThat(y[p * width + j]).as("pair %d row %d", p, j).isEqualTo(ya[i * 32 + j]);
                    }
                    for (int j = 0; j < bRows; j++) {
                        assertThat(y[p * width + 32 + j])
                                .as("pair %d row %d", p, 32 + j)
                                .isEqualTo(yb[i * bRows + j]);
                    }
                }
            }
            assertThat(Arrays.copyOfRange(y, 7 * width, 8 * width)).containsOnly(7f);
        }
        assertThatThrownBy(() -> backend.expertMatmul(
                        w, routing, tokens, 2, false, activations(x, 5, k), backend.allocate(8, width)))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("rows 2..6 of 5");
    }

    @Test
    void combineExpertsAddsTheWeightedSlotsInOrder() {
        // 2 tokens, 2 slots: y rows are token-major (both slots of token 0, then token 1's)
        Activations y = activations(new float[] {1, 2, 3, 4, 5, 6, 7, 8}, 4, 2);
        Activations routing = activations(new float[] {0, 1, 0.5f, 2f, 1, 0, -1f, 0.25f}, 2, 4);
        Activations out = activations(new float[] {9, 9, 9, 9, 9, 9}, 3, 2);
        backend.combineExperts(y, routing, 1, 2, out);
        // token 0: 0.5*[1,2] + 2*[3,4]; token 1: -1*[5,6] + 0.25*[7,8]
        assertThat(read(out, 3)).containsExactly(9, 9, 6.5f, 9, -3.25f, -4);
    }

    @Test
    void scaleAndTanhSoftCapLogits() {
        Activations a = activations(new float[] {-90, 0, 30, 3000}, 1, 4);
        backend.scale(a, 1 / 30f, 1);
        backend.unary(Unary.TANH, a, 1);
        backend.scale(a, 30f, 1);
        float[] y = read(a, 1);
        assertThat(y[0]).isCloseTo((float) (30 * Math.tanh(-3)), within(1e-4f));
        assertThat(y[1]).isZero();
        assertThat(y[2]).isCloseTo((float) (30 * Math.tanh(1)), within(1e-4f));
        assertThat(y[3]).isCloseTo(30f, within(1e-4f));
    }

    @Test
    void ropeRotatesAdjacentPairsOrHalvesByPosition() {
        float[] x = {1, 0, 0, 1, 1, 0, 0, 1};
        Batch batch = Batch.builder(4)
                .add(new int[] {1}, 3, new int[] {0}, Batch.Logits.NONE)
                .build();
        step.close();
        step = backend.beginStep(batch);
        Activations normal = activations(x, 1, 8);
        backend.rope(normal, 0, 2, 4, 1, new Rope(Rope.Style.NORMAL, 4, 100f, 1f, null));
        float[] y = read(normal, 1);
        double t0 = 3.0;
        double t1 = 3.0 * Math.pow(100, -0.5);
        // pair (0,1) = (1,0) turns by t0; pair (2,3) = (0,1) by t1
        assertThat(y[0]).isCloseTo((float) Math.cos(t0), within(1e-6f));
        assertThat(y[1]).isCloseTo((float) Math.sin(t0), within(1e-6f));
        assertThat(y[2]).isCloseTo((float) -Math.sin(t1), within(1e-6f));
        assertThat(y[3]).isCloseTo((float) Math.cos(t1), within(1e-6f));
        Activations neox = activations(x, 1, 8);
        backend.rope(neox, 0, 2, 4, 1, new Rope(Rope.Style.NEOX, 4, 100f, 1f, null));
        float[] z = read(neox, 1);
        // pairs (0,2) = (1,0) by t0 and (1,3) = (0,1) by t1
        assertThat(z[0]).isCloseTo((float) Math.cos(t0), within(1e-6f));
        assertThat(z[2]).isCloseTo((float) Math.sin(t0), within(1e-6f));
        assertThat(z[1]).isCloseTo((float) -Math.sin(t1), within(1e-6f));
        assertThat(z[3]).isCloseTo((float) Math.cos(t1), within(1e-6f));
    }

    @Test
    void layerNormRoundsLikeGgmlWithBertsTinyEpsilon() {
        // BERT's epsilon (1e-12) vanishes next to any real variance; the result is centred and of unit variance
        Random r = new Random(3);
        float[] x = gaussian(384, r);
        for (int i = 0; i < x.length; i++) {
            x[i] = x[i] * 4 + 7;
        }
        float[] ones = new float[384];
        java.util.Arrays.fill(ones, 1f);
        Activations out = backend.allocate(1, 384);
        backend.layerNorm(activations(x, 1, 384), vector(ones), vector(new float[384]), 1e-12f, 1, out);
        float[] y = read(out, 1);
        double mean = 0;
        double sq = 0;
        for (float v : y) {
            mean += v;
            sq += (double) v * v;
        }
        assertThat(mean / 384).isCloseTo(0, within(1e-6));
        assertThat(sq / 384).isCloseTo(1, within(1e-5));
    }

    @Test
    void geluIsTheTanhFormOfTheInputRoundedToHalfAsGgmlCpuComputesIt() {
        float[] x = {-12f, -10f, -3.2f, -0.5f, 0f, 1e-3f, 0.5f, 1f, 2.5f, 9.99f, 10f, 15f, 1.0001f, -0.0417f};
        Activations a = backend.allocate(2, x.length);
        CpuActivations rows = (CpuActivations) a;
        System.arraycopy(x, 0, rows.data, 0, x.length);
        System.arraycopy(x, 0, rows.data, x.length, x.length);
        backend.gelu(a, 1);
        float[] y = read(a, 2);
        for (int i = 0; i < x.length; i++) {
            if (x[i] <= -10f) {
                assertThat(y[i]).as("gelu(%s)", x[i]).isZero();
            } else if (x[i] >= 10f) {
                assertThat(y[i]).as("gelu(%s)", x[i]).isEqualTo(x[i]);
            } else {
                double h = Float.float16ToFloat(Float.floatToFloat16(x[i]));
                double exact = 0.5 * h * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * h * (1 + 0.044715 * h * h)));
                // the table holds halves: within half a half-precision step of the formula
                assertThat((double) y[i]).as("gelu(%s)", x[i]).isCloseTo(exact, within(Math.abs(exact) / 1024 + 1e-7));
                assertThat(Float.float16ToFloat(Float.floatToFloat16(y[i]))).isEqualTo(y[i]);
            }
            assertThat(y[x.length + i]).as("row 1 is beyond n and untouched").isEqualTo(x[i]);
        }
        // 1.0001 and 1 are the same half, so the same entry of the table
        assertThat(y[12]).isEqualTo(y[7]);
        assertThat(y[7]).isEqualTo(Float.float16ToFloat(Float.floatToFloat16(0.841345f)));
    }

    @Test
    void encoderAttentionAttendsToEveryRowOfItsOwnSequenceOnly() {
        // sequences of 3, 1 and 5 rows; 4 query heads share 2 kv heads
        AttentionShape shape = new AttentionShape(4, 2, 8, 1f / (float) Math.sqrt(8), false, 0);
        int cols = shape.queryDim() + 2 * shape.kvDim();
        int[] starts = {0, 3, 4, 9, 99};
        Random r = new Random(11);
        float[] qkv = gaussian(10 * cols, r);
        Activations out = backend.allocate(10, shape.queryDim());
        backend.encoderAttention(activations(qkv, 10, cols), starts, 3, shape, out);
        float[] y = read(out, 10);
        for (int s = 0; s < 3; s++) {
            for (int t = starts[s]; t < starts[s + 1]; t++) {
                for (int head = 0; head < 4; head++) {
                    int kv = head / 2;
                    double[] scores = new double[starts[s + 1] - starts[s]];
                    double max = Double.NEGATIVE_INFINITY;
                    for (int j = 0; j < scores.length; j++) {
                        double dot = 0;
                        for (int i = 0; i < 8; i++) {
                            dot += qkv[t * cols + head * 8 + i]
                                    * qkv[(starts[s] + j) * cols + shape.keyCol() + kv * 8 + i];
                        }
                        scores[j] = dot * shape.scale();
                        max = Math.max(max, scores[j]);
                    }
                    double sum = 0;
                    for (int j = 0; j < scores.length; j++) {
                        scores[j] = Math.exp(scores[j] - max);
                        sum += scores[j];
                    }
                    for (int i = 0; i < 8; i++) {
                        double expected = 0;
                        for (int j = 0; j < scores.length; j++) {
                            expected += scores[j] / sum * qkv[(starts[s] + j) * cols + shape.valueCol() + kv * 8 + i];
                        }
                        assertThat((double) y[t * shape.queryDim() + head * 8 + i])
                                .as("row %d head %d", t, head)
                                .isCloseTo(expected, within(1e-5));
                    }
                }
            }
        }
        assertThat(java.util.Arrays.copyOfRange(y, 9 * shape.queryDim(), 10 * shape.queryDim()))
                .as("row past the spans")
                .containsOnly(0f);
    }

    @Test
    void encoderAttentionRefusesACausalShape() {
        AttentionShape causal = new AttentionShape(2, 2, 4, 0.5f, true, 0);
        Activations qkv = backend.allocate(2, 24);
        Activations out = backend.allocate(2, 8);
        assertThatThrownBy(() -> backend.encoderAttention(qkv, new int[] {0, 2}, 1, causal, out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bidirectional");
        assertThatThrownBy(() -> backend.encoderAttention(
                        qkv, new int[] {0, 2, 2}, 2, new AttentionShape(2, 2, 4, 0.5f, false, 0), out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sequence 1 spans no rows");
    }

    @Test
    void poolingTakesTheMeanTheFirstOrTheLastRowOfEachSequence() {
        float[] x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 30}; // rows of 2: (1,2) (3,4) | (5,6) (7,8) (9,10) (20,30)
        int[] starts = {0, 2, 6};
        Activations out = backend.allocate(2, 2);
        backend.pool(activations(x, 6, 2), starts, 2, Pooling.MEAN, out);
        assertThat(read(out, 2)).containsExactly(2, 3, 10.25f, 13.5f);
        backend.pool(activations(x, 6, 2), starts, 2, Pooling.CLS, out);
        assertThat(read(out, 2)).containsExactly(1, 2, 5, 6);
        backend.pool(activations(x, 6, 2), starts, 2, Pooling.LAST, out);
        assertThat(read(out, 2)).containsExactly(3, 4, 20, 30);
    }

    private static float[] product(Weight w, float[] x, int tokens, int cols, int rows) {
        Activations out = backend.allocate(tokens, rows);
        backend.matmul(w, activations(x, tokens, cols), tokens, out);
        return read(out, tokens);
    }

    private static Activations activations(float[] values, int rows, int cols) {
        CpuActivations a = (CpuActivations) backend.allocate(rows, cols);
        System.arraycopy(values, 0, a.data, 0, values.length);
        return a;
    }

    private static float[] read(Activations a, int rows) {
        float[] out = new float[rows * a.cols()];
        backend.read(a, rows, out, 0);
        return out;
    }

    private static Weight vector(float[] values) {
        return CpuWeight.vector(backend, "v", values);
    }

    private static float[] gaussian(int n, Random r) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) r.nextGaussian();
        }
        return x;
    }

    /** {@code experts} random matrices of {@code rows x cols}, stacked as a mixture's 3-D tensor. */
    private static GgufTensor stack(String name, GgmlType type, int cols, int rows, int experts, Random r) {
        MemorySegment data = CpuTensorTests.randomTensor(type, rows * experts, cols, r);
        return new GgufTensor(name, type, new long[] {cols, rows, experts}, 0, data);
    }

    /** Rows {@code [from, from + n)} of a stack, as a matrix of their own. */
    private static GgufTensor rows(GgufTensor t, int from, int n) {
        long rowBytes = t.rowBytes();
        return new GgufTensor(
                t.name() + "[" + from + "]",
                t.type(),
                new long[] {t.rowLength(), n},
                0,
                t.data().asSlice(from * rowBytes, n * rowBytes));
    }

    private static GgufTensor tensor(String name, GgmlType type, int rows, int cols, Random r) {
        MemorySegment data = CpuTensorTests.randomTensor(type, rows, cols, r);
        return new GgufTensor(name, type, new long[] {cols, rows}, 0, data);
    }
}
