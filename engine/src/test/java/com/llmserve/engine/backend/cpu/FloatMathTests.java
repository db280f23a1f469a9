package com.llmserve.engine.backend.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FloatMathTests {

    /** Attention relies on these kernels giving the bits of the one-row calls they replace, whatever the count. */
    @ParameterizedTest
    @CsvSource({"64, 1", "64, 15", "64, 16", "64, 37", "128, 64", "80, 33", "8, 20", "16, 48"})
    void dotsGiveTheBitsOfOneDotPerRow(int n, int count) {
        Random r = new Random(n * 31L + count);
        int stride = n + 16;
        float[] q = randoms(r, n + 3);
        float[] rows = randoms(r, 5 + count * stride);
        float[] out = new float[count + 2];
        FloatMath.dots(q, 3, rows, 5, stride, count, n, 0.125f, out, 1);
        for (int j = 0; j < count; j++) {
            float expected = FloatMath.dot(q, 3, rows, 5 + j * stride, n) * 0.125f;
            assertThat(Float.floatToRawIntBits(out[1 + j]))
                    .as("row %d", j)
                    .isEqualTo(Float.floatToRawIntBits(expected));
        }
        assertThat(out[0]).isZero();
        assertThat(out[count + 1]).isZero();
    }

    @ParameterizedTest
    @CsvSource({"64, 1", "64, 17", "128, 40", "80, 9", "8, 20", "24, 3"})
    void weightedSumGivesTheBitsOfOneAxpyPerRow(int n, int count) {
        Random r = new Random(n * 17L + count);
        int stride = n + 8;
        float[] w = randoms(r, count + 2);
        float[] rows = randoms(r, 4 + count * stride);
        float[] start = randoms(r, n + 6);
        float[] expected = start.clone();
        for (int j = 0; j < count; j++) {
            FloatMath.axpy(w[2 + j], rows, 4 + j * stride, expected, 6, n);
        }
        float[] actual = start.clone();
        FloatMath.weightedSum(w, 2, count, rows, 4, stride, actual, 6, n);
        for (int i = 0; i < actual.length; i++) {
            assertThat(Float.floatToRawIntBits(actual[i]))
                    .as("element %d", i)
                    .isEqualTo(Float.floatToRawIntBits(expected[i]));
        }
    }

    /** Enough calls that C2 compiles both kernels (and their reductions) mid-loop; every call must keep the bits. */
    @Test
    void compiledKernelsKeepTheBits() {
        Random r = new Random(3);
        int n = 64;
        int count = 21;
        float[] q = randoms(r, n);
        float[] rows = randoms(r, count * n);
        float[] expectedScores = new float[count];
        for (int j = 0; j < count; j++) {
            expectedScores[j] = FloatMath.dot(q, 0, rows, j * n, n) * 0.125f;
        }
        float[] expectedSum = new float[n];
        for (int j = 0; j < count; j++) {
            FloatMath.axpy(expectedScores[j], rows, j * n, expectedSum, 0, n);
        }
        float[] scores = new float[count];
        float[] sum = new float[n];
        int mismatches = 0;
        for (int call = 0; call < 30_000; call++) {
            FloatMath.dots(q, 0, rows, 0, n, count, n, 0.125f, scores, 0);
            java.util.Arrays.fill(sum, 0f);
            FloatMath.weightedSum(scores, 0, count, rows, 0, n, sum, 0, n);
            if (!java.util.Arrays.equals(scores, expectedScores) || !java.util.Arrays.equals(sum, expectedSum)) {
                mismatches++;
            }
        }
        assertThat(mismatches).isZero();
    }

    private static float[] randoms(Random r, int n) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) r.nextGaussian();
        }
        return x;
    }
}
