package com.llmserve.engine.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SamplerTests {

    private static final float[] LOGITS = {1f, 3f, 2f, 3f, -1f, 0.5f};

    @Test
    void greedyTakesTheLargestLogitAndTheLowestIdOnATie() {
        Sampler s = new Sampler(SamplingParams.GREEDY, LOGITS.length);
        assertThat(s.sample(LOGITS, 0, new TokenHistory(new int[0]))).isEqualTo(1);
    }

    @Test
    void aMaskLeavesOnlyItsTokensAndTheAlsoAllowedOnes() {
        long[] mask = {0b100101L}; // tokens 0, 2 and 5
        Sampler greedy = new Sampler(SamplingParams.GREEDY, LOGITS.length);
        assertThat(greedy.sample(LOGITS, 0, null, mask, java.util.Set.of())).isEqualTo(2);
        assertThat(greedy.sample(LOGITS, 0, null, mask, java.util.Set.of(3))).isEqualTo(3);
        assertThat(greedy.sample(LOGITS, 0, null, new long[1], java.util.Set.of()))
                .isEqualTo(-1);
        // the same choice through the general path (a bias that changes nothing here)
        Sampler biased = new Sampler(SamplingParams.GREEDY.withLogitBias(Map.of(4, 0.1f)), LOGITS.length);
        assertThat(biased.sample(LOGITS, 0, null, mask, java.util.Set.of())).isEqualTo(2);
        Sampler hot = new Sampler(SamplingParams.GREEDY.withTemperature(1f).withSeed(1), LOGITS.length);
        for (int i = 0; i < 100; i++) {
            assertThat(hot.sample(LOGITS, 0, null, mask, java.util.Set.of())).isIn(0, 2, 5);
        }
    }

    @Test
    void samplingReadsTheRowAtItsOffsetAndLeavesTheLogitsAlone() {
        float[] twoRows = new float[12];
        System.arraycopy(LOGITS, 0, twoRows, 6, 6);
        float[] before = twoRows.clone();
        Sampler s = new Sampler(SamplingParams.GREEDY.withLogitBias(Map.of(4, 10f)), 6);
        assertThat(s.sample(twoRows, 6, null)).isEqualTo(4);
        assertThat(twoRows).containsExactly(before);
    }

    @Test
    void temperatureSamplesInProportionToTheSoftmax() {
        Sampler s = new Sampler(SamplingParams.GREEDY.withTemperature(1f).withSeed(5), LOGITS.length);
        int[] counts = frequencies(s, 60_000);
        double z = 0;
        for (float l : LOGITS) {
            z += Math.exp(l);
        }
        for (int i = 0; i < LOGITS.length; i++) {
            assertThat(counts[i] / 60_000.0).as("token %d", i).isCloseTo(Math.exp(LOGITS[i]) / z, within(0.01));
        }
    }

    @Test
    void lowTemperatureSharpensAndHighTemperatureFlattens() {
        int[] cold = frequencies(
                new Sampler(SamplingParams.GREEDY.withTemperature(0.1f).withSeed(1), 6), 20_000);
        int[] hot = frequencies(
                new Sampler(SamplingParams.GREEDY.withTemperature(10f).withSeed(1), 6), 20_000);
        assertThat(cold[1] + cold[3]).isGreaterThan(19_900);
        assertThat(hot[4]).isGreaterThan(2_000);
    }

    @Test
    void topKKeepsOnlyTheKMostLikely() {
        int[] counts = frequencies(
                new Sampler(
                        SamplingParams.GREEDY.withTemperature(1f).withTopK(3).withSeed(2), 6),
                20_000);
        assertThat(counts[0]).isZero();
        assertThat(counts[4]).isZero();
        assertThat(counts[5]).isZero();
        assertThat(counts[1] + counts[2] + counts[3]).isEqualTo(20_000);
    }

    @Test
    void topPKeepsTheSmallestSetThatReachesP() {
        // softmax of LOGITS: ids 1 and 3 hold 0.384 each, id 2 0.141: p = 0.6 needs ids 1 and 3 only, 0.8 adds id 2
        int[] counts = frequencies(
                new Sampler(
                        SamplingParams.GREEDY.withTemperature(1f).withTopP(0.6f).withSeed(3), 6),
                20_000);
        assertThat(counts[1] + counts[3]).isEqualTo(20_000);
        assertThat(counts[1]).isBetween(9_500, 10_500);
        int[] wider = frequencies(
                new Sampler(
                        SamplingParams.GREEDY.withTemperature(1f).withTopP(0.8f).withSeed(3), 6),
                20_000);
        assertThat(wider[2]).isGreaterThan(2_000);
        assertThat(wider[0] + wider[4] + wider[5]).isZero();
    }

    @Test
    void minPDropsTokensFarLessLikelyThanTheBest() {
        // p(id 2) / p(id 1) = e^-1 = 0.37; p(id 0)/p(id 1) = e^-2 = 0.135
        int[] counts = frequencies(
                new Sampler(
                        SamplingParams.GREEDY.withTemperature(1f).withMinP(0.2f).withSeed(4), 6),
                20_000);
        assertThat(counts[2]).isPositive();
        assertThat(counts[0] + counts[4] + counts[5]).isZero();
    }

    @Test
    void penaltiesFollowOpenAiAndRepetitionSemantics() {
        TokenHistory h = new TokenHistory(new int[] {3});
        h.accept(1);
        h.accept(1);
        // presence 0.5 + 2 * frequency 0.4 = 1.3 off id 1 (3.0 -> 1.7); id 3 (prompt only) untouched by them
        Sampler s = new Sampler(SamplingParams.GREEDY.withPenalties(1f, 0.5f, 0.4f), 6);
        assertThat(s.sample(LOGITS, 0, h)).isEqualTo(3);
        // repetition 2: ids 1 and 3 are seen: 3.0 -> 1.5, so id 2 (2.0) wins
        Sampler rep = new Sampler(SamplingParams.GREEDY.withPenalties(2f, 0f, 0f), 6);
        assertThat(rep.sample(LOGITS, 0, h)).isEqualTo(2);
        // a negative logit is multiplied: id 4 at -1 seen becomes -2
        float[] neg = {-1f, -1.5f};
        TokenHistory seen0 = new TokenHistory(new int[] {0});
        assertThat(new Sampler(SamplingParams.GREEDY.withPenalties(2f, 0f, 0f), 2).sample(neg, 0, seen0))
                .isEqualTo(1);
    }

    @Test
    void logitBiasCanForbidAToken() {
        Sampler s = new Sampler(SamplingParams.GREEDY.withLogitBias(Map.of(1, Float.NEGATIVE_INFINITY)), 6);
        assertThat(s.sample(LOGITS, 0, null)).isEqualTo(3);
    }

    @Test
    void theSameSeedGivesTheSameTokens() {
        SamplingParams p = SamplingParams.GREEDY
                .withTemperature(0.9f)
                .withTopP(0.95f)
                .withTopK(5)
                .withSeed(1234);
        int[] a = sequence(new Sampler(p, 6));
        int[] b = sequence(new Sampler(p, 6));
        int[] c = sequence(new Sampler(p.withSeed(99), 6));
        assertThat(a).containsExactly(b);
        assertThat(a).isNotEqualTo(c);
    }

    @Test
    void badParametersAreRefusedWithTheirName() {
        assertThatThrownBy(() -> SamplingParams.GREEDY.withTemperature(-1f)).hasMessageContaining("temperature");
        assertThatThrownBy(() -> SamplingParams.GREEDY.withTopP(0f)).hasMessageContaining("top_p");
        assertThatThrownBy(() -> SamplingParams.GREEDY.withTopK(-2)).hasMessageContaining("top_k");
        assertThatThrownBy(() -> SamplingParams.GREEDY.withMinP(2f)).hasMessageContaining("min_p");
        assertThatThrownBy(() -> new Sampler(SamplingParams.GREEDY.withLogitBias(Map.of(99, 1f)), 6))
                .hasMessageContaining("logit_bias token id 99");
    }

    @Test
    void topLogprobsComeFromTheRawDistribution() {
        TokenLogprobs lp = TokenLogprobs.of(LOGITS, 0, 6, 2, 3);
        double z = 0;
        for (float l : LOGITS) {
            z += Math.exp(l);
        }
        assertThat(lp.logprob()).isCloseTo((float) (2 - Math.log(z)), within(1e-5f));
        assertThat(lp.topTokens()).containsExactly(1, 3, 2);
        assertThat(lp.topLogprobs()[0]).isCloseTo((float) (3 - Math.log(z)), within(1e-5f));
    }

    private static int[] frequencies(Sampler s, int n) {
        int[] counts = new int[LOGITS.length];
        for (int i = 0; i < n; i++) {
            counts[s.sample(LOGITS, 0, null)]++;
        }
        return counts;
    }

    private static int[] sequence(Sampler s) {
        int[] out = new int[50];
        for (int i = 0; i < out.length; i++) {
            out[i] = s.sample(LOGITS, 0, null);
        }
        return out;
    }
}
