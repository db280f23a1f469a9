package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Glu;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * A mixture-of-experts feed-forward as llama.cpp's {@code build_moe_ffn} computes it with softmax
 * gating: the router's logits go through a softmax, each token takes its {@code used} most likely
 * experts, their probabilities are renormalized to sum to 1 (then scaled), and the token's output
 * is the weighted sum of those experts' SwiGLU/GeGLU feed-forwards.
 *
 * <p>The choice is made on the host from the router's logits (a GPU syncs once per layer here);
 * the products then run as (token, expert) pairs through {@link Backend#expertMatmul}, which reads
 * each chosen expert once for all its pairs, and {@link Backend#combineExperts} adds the weighted
 * outputs slot by slot (every token's first choice, then its second...), the order in which
 * llama.cpp adds them. Tokens go in passes of as many pairs as the scratch rows hold.
 */
final class MixtureOfExperts implements AutoCloseable {

    /** The smallest sum of the chosen probabilities llama.cpp divides by (a half's smallest normal). */
    private static final float MIN_WEIGHT_SUM = 6.103515625e-5f;

    private final Backend be;
    private final Experts experts;
    private final Glu glu;
    private final Activations gateUp;
    private final Activations hidden;
    private final Activations routerLogits;
    private final Activations expertOut;
    private final Activations out;
    private final float[] probabilities;
    private final int[] chosen;
    private final float[] weights;
    private final int[] pairExpert;
    private final int[] pairRow;
    private final int[] ownRow;

    /**
     * {@code gateUp} and {@code hidden} are the decoder's feed-forward scratch, shared (the layer has
     * no dense one); their rows bound the pairs of a pass.
     */
    MixtureOfExperts(
            Backend be, Experts experts, Glu glu, int maxRows, int width, Activations gateUp, Activations hidden) {
        this.be = be;
        this.experts = experts;
        this.glu = glu;
        this.gateUp = gateUp;
        this.hidden = hidden;
        this.routerLogits = be.allocate(maxRows, experts.count());
        this.expertOut = be.allocate(maxRows, width);
        this.out = be.allocate(maxRows, width);
        this.probabilities = new float[maxRows * experts.count()];
        this.chosen = new int[maxRows * experts.used()];
        this.weights = new float[maxRows * experts.used()];
        this.pairExpert = new int[maxRows];
        this.pairRow = new int[maxRows];
        this.ownRow = IntStream.range(0, maxRows).toArray();
    }

    /** The mixture's output of the last {@link #forward}, rows {@code [0, n)}. */
    Activations out() {
        return out;
    }

    /** Runs the layer's experts over rows {@code [0, n)} of {@code in} (the normalized input) into {@link #out()}. */
    void forward(DecoderWeights.ExpertWeights w, Activations in, int n) {
        be.matmul(w.router(), in, n, routerLogits);
        be.read(routerLogits, n, probabilities, 0);
        route(n);
        int used = experts.used();
        int perPass = Math.max(1, gateUp.rows() / used);
        for (int t0 = 0; t0 < n; t0 += perPass) {
            int m = Math.min(perPass, n - t0);
            int pairs = m * used;
            for (int j = 0; j < used; j++) {
                for (int t = 0; t < m; t++) {
                    pairExpert[j * m + t] = chosen[(t0 + t) * used + j];
                    pairRow[j * m + t] = t0 + t;
                }
            }
            be.expertMatmul(w.gateUp(), pairExpert, pairRow, pairs, in, gateUp);
            be.glu(glu, gateUp, pairs, hidden);
            be.expertMatmul(w.down(), pairExpert, ownRow, pairs, hidden, expertOut);
            be.combineExperts(expertOut, used, t0, m, Arrays.copyOfRange(weights, t0 * used, (t0 + m) * used), out);
        }
    }

    /** Softmax over each token's router logits, its top {@code used} experts, and their renormalized weights. */
    private void route(int n) {
        int count = experts.count();
        int used = experts.used();
        for (int t = 0; t < n; t++) {
            int base = t * count;
            softmax(probabilities, base, count);
            double sum = 0;
            for (int j = 0; j < used; j++) {
                int best = -1;
                for (int e = 0; e < count; e++) {
                    if (!chosenBefore(t, j, e) && (best < 0 || probabilities[base + e] > probabilities[base + best])) {
                        best = e;
                    }
                }
                chosen[t * used + j] = best;
                weights[t * used + j] = probabilities[base + best];
                sum += probabilities[base + best];
            }
            float divisor = Math.max((float) sum, MIN_WEIGHT_SUM);
            for (int j = 0; j < used; j++) {
                weights[t * used + j] = weights[t * used + j] / divisor * experts.scale();
            }
        }
    }

    private boolean chosenBefore(int t, int slots, int expert) {
        for (int j = 0; j < slots; j++) {
            if (chosen[t * experts.used() + j] == expert) {
                return true;
            }
        }
        return false;
    }

    /** As ggml's {@code soft_max}: the maximum subtracted, exponentials summed in double, scaled by the float inverse. */
    private static void softmax(float[] x, int off, int n) {
        float max = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            max = Math.max(max, x[off + i]);
        }
        double sum = 0;
        for (int i = 0; i < n; i++) {
            float e = (float) Math.exp(x[off + i] - max);
            x[off + i] = e;
            sum += e;
        }
        float inv = (float) (1.0 / sum);
        for (int i = 0; i < n; i++) {
            x[off + i] *= inv;
        }
    }

    @Override
    public void close() {
        for (Activations a : new Activations[] {routerLogits, expertOut, out}) {
            a.close();
        }
    }
}
