package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufTensor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The activation-side operations of the CPU backend against plain formulas. */
class CpuBackendTest {

    private static CpuBackend backend;

    @BeforeAll
    static void start() {
        backend = new CpuBackend(2);
    }

    @AfterAll
    static void stop() {
        backend.close();
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
        backend.layerNorm(activations(x, 1, 4), vector(new float[] {1, 1, 2, 1}), vector(new float[] {0, 1, 0, 0}), 0f, 1, out);
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
    void ropeRotatesAdjacentPairsOrHalvesByPosition() {
        float[] x = {1, 0, 0, 1, 1, 0, 0, 1};
        Batch batch = Batch.builder(4).add(new int[] {1}, 3, new int[] {0}, Batch.Logits.NONE).build();
        Activations normal = activations(x, 1, 8);
        backend.rope(normal, 0, 2, 4, batch, 1, new Rope(Rope.Style.NORMAL, 4, 100f, 1f, null));
        float[] y = read(normal, 1);
        double t0 = 3.0;
        double t1 = 3.0 * Math.pow(100, -0.5);
        // pair (0,1) = (1,0) turns by t0; pair (2,3) = (0,1) by t1
        assertThat(y[0]).isCloseTo((float) Math.cos(t0), within(1e-6f));
        assertThat(y[1]).isCloseTo((float) Math.sin(t0), within(1e-6f));
        assertThat(y[2]).isCloseTo((float) -Math.sin(t1), within(1e-6f));
        assertThat(y[3]).isCloseTo((float) Math.cos(t1), within(1e-6f));
        Activations neox = activations(x, 1, 8);
        backend.rope(neox, 0, 2, 4, batch, 1, new Rope(Rope.Style.NEOX, 4, 100f, 1f, null));
        float[] z = read(neox, 1);
        // pairs (0,2) = (1,0) by t0 and (1,3) = (0,1) by t1
        assertThat(z[0]).isCloseTo((float) Math.cos(t0), within(1e-6f));
        assertThat(z[2]).isCloseTo((float) Math.sin(t0), within(1e-6f));
        assertThat(z[1]).isCloseTo((float) -Math.sin(t1), within(1e-6f));
        assertThat(z[3]).isCloseTo((float) Math.cos(t1), within(1e-6f));
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
        return CpuWeight.vector("v", values);
    }

    private static float[] gaussian(int n, Random r) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) r.nextGaussian();
        }
        return x;
    }

    private static GgufTensor tensor(String name, GgmlType type, int rows, int cols, Random r) {
        MemorySegment data = CpuTensorTest.randomTensor(type, rows, cols, r);
        return new GgufTensor(name, type, new long[] {cols, rows}, 0, data);
    }
}
