package com.llmserve.engine.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Rope frequencies and YaRN's corrections against ggml's float recipe, written out step by step. */
class RopeTests {

    @Test
    void withoutYarnEveryPairIsScaledLinearly() {
        Rope rope = new Rope(Rope.Style.NEOX, 128, 1e6f, 0.25f, null);
        for (int i = 0; i < 64; i++) {
            assertThat(rope.theta(i)).isCloseTo((float) (Math.pow(1e6, -2.0 * i / 128) * 0.25), within(1e-9f));
        }
        assertThat(rope.magnitude()).isEqualTo(1f);
    }

    @Test
    void yarnKeepsFastPairsUnscaledScalesSlowOnesAndMixesBetweenAsGgmlDoes() {
        // Qwen3's YaRN: factor 4 over an original context of 32768
        int dims = 128;
        float base = 1e6f;
        float freqScale = 0.25f;
        Rope rope = new Rope(Rope.Style.NEOX, dims, base, freqScale, null, new Rope.Yarn(32768, 32f, 1f, 1f, 1f));
        float[] corr = ggmlCorrDims(dims, 32768, base, 32f, 1f);
        assertThat(corr[0]).as("low correction dim").isGreaterThan(0);
        assertThat(corr[1]).as("high correction dim").isLessThan(dims / 2f);
        int[] positions = {1, 17, 4096, 100_000};
        for (int pos : positions) {
            float[] ref = ggmlYarn(pos, dims, base, freqScale, corr, 1f, cparamsAttnFactor(freqScale));
            for (int i = 0; i < dims / 2; i++) {
                double angle = (double) pos * rope.theta(i);
                assertThat(angle).as("pos %d pair %d", pos, i).isCloseTo(ref[2 * i], within(2e-6 * pos + 1e-6));
            }
            assertThat(rope.magnitude()).isCloseTo(ref[1], within(1e-6f));
        }
        assertThat(rope.theta(0)).as("fastest pair: unscaled").isEqualTo(1f);
        assertThat(rope.theta(63))
                .as("slowest pair: scaled by 1/4")
                .isCloseTo((float) (Math.pow(1e6, -126.0 / 128) * 0.25), within(1e-12f));
        assertThat(rope.magnitude()).isCloseTo(1f + 0.1f * (float) Math.log(4), within(1e-6f));
    }

    @Test
    void anAttentionFactorOnALinearRopeOnlyScalesTheMagnitude() {
        Rope plain = new Rope(Rope.Style.NORMAL, 64, 1e4f, 0.5f, null);
        Rope scaled = new Rope(Rope.Style.NORMAL, 64, 1e4f, 0.5f, null, new Rope.Yarn(4096, 32f, 1f, 0f, 0.8f));
        for (int i = 0; i < 32; i++) {
            assertThat(scaled.theta(i)).isEqualTo(plain.theta(i));
        }
        assertThat(scaled.magnitude()).isEqualTo(0.8f);
    }

    /** llama-context.cpp's yarn_attn_factor for a YaRN rope without a log multiplier or attention factor. */
    private static float cparamsAttnFactor(float freqScale) {
        float factor = 1f / freqScale;
        float mscale = factor <= 1f ? 1f : 0.1f * (float) Math.log(factor) + 1f;
        return mscale * (1f / (1f + 0.1f * (float) Math.log(factor)));
    }

    private static float[] ggmlCorrDims(int dims, int ctx, float base, float fast, float slow) {
        return new float[] {
            Math.max(0, (float) Math.floor(corrDim(dims, ctx, fast, base))),
            Math.min(dims - 1, (float) Math.ceil(corrDim(dims, ctx, slow, base)))
        };
    }

    private static float corrDim(int dims, int ctx, float rot, float base) {
        return dims * (float) Math.log(ctx / (rot * 2 * (float) Math.PI)) / (2 * (float) Math.log(base));
    }

    /**
     * ggml's rope cache for one position: theta starts at the position and is multiplied by
     * {@code base^(-2/dims)} per pair; each pair's angle mixes the interpolated and extrapolated
     * thetas along the ramp. Returns {@code [angle_0, mscale, angle_1, mscale, ...]}.
     */
    private static float[] ggmlYarn(
            int pos, int dims, float base, float freqScale, float[] corr, float ext, float mscale) {
        float thetaScale = (float) Math.pow(base, -2.0f / dims);
        float theta = pos;
        float[] out = new float[dims];
        for (int i0 = 0; i0 < dims; i0 += 2) {
            float interp = freqScale * theta;
            float y = (i0 / 2 - corr[0]) / Math.max(0.001f, corr[1] - corr[0]);
            float mix = (1 - Math.min(1, Math.max(0, y))) * ext;
            out[i0] = interp * (1 - mix) + theta * mix;
            out[i0 + 1] = mscale * (1.0f + 0.1f * (float) Math.log(1.0f / freqScale));
            theta *= thetaScale;
        }
        return out;
    }
}
