package com.llmserve.engine.backend.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Test;

class SimdTests {

    @Test
    void expIsWithinTwoUlpsOfMathExpAndTheScalarTwinGivesTheSameBits() {
        Random r = new Random(1);
        float[] x = new float[Simd.L];
        float[] out = new float[Simd.L];
        for (int trial = 0; trial < 20_000; trial++) {
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) (r.nextDouble() * 170 - 86);
            }
            Simd.exp(FloatVector.fromArray(Simd.F, x, 0)).intoArray(out, 0);
            for (int i = 0; i < x.length; i++) {
                float expected = (float) Math.exp(x[i]);
                assertThat(Math.abs(out[i] - expected)).as("exp(%s)", x[i]).isLessThanOrEqualTo(2 * Math.ulp(expected));
                assertThat(Float.floatToRawIntBits(Simd.exp(x[i]))).isEqualTo(Float.floatToRawIntBits(out[i]));
            }
        }
        assertThat(Simd.exp(-1000f)).isBetween(0f, 1e-37f);
        assertThat(Simd.exp(0f)).isEqualTo(1f);
        assertThat(Float.isFinite(Simd.exp(1000f))).isTrue();
    }

    @Test
    void sumAddsEveryLane() {
        float[] x = new float[Simd.L];
        double expected = 0;
        for (int i = 0; i < x.length; i++) {
            x[i] = i * 0.5f + 1;
            expected += x[i];
        }
        assertThat((double) Simd.sum(FloatVector.fromArray(Simd.F, x, 0))).isEqualTo(expected);
    }
}
