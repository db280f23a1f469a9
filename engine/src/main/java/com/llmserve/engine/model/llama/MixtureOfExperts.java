package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Glu;
import java.util.Arrays;

/**
 * A mixture-of-experts feed-forward as llama.cpp's {@code build_moe_ffn} computes it with softmax
 * gating: the router's logits go through a softmax, each token takes its {@code used} most likely
 * experts, their probabilities are renormalized to sum to 1 (then scaled), and the token's output
 * is the weighted sum of those experts' SwiGLU/GeGLU feed-forwards. Only the chosen experts run,
 * each over the tokens that chose it.
 *
 * <p>The choice is made on the host from the router's logits, so a GPU syncs once per layer here.
 * The weighted sum is formed slot by slot (every token's first choice, then its second...), the
 * order in which llama.cpp adds the experts' outputs.
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
    private final Activations expertIn;
    private final Activations expertOut;
    private final Activations out;
    private final float[] probabilities;
    private final int[] chosen;
    private final float[] weights;

    /** {@code gateUp} and {@code hidden} are the decoder's feed-forward scratch, shared: the layer has no dense one. */
    MixtureOfExperts(
            Backend be, Experts experts, Glu glu, int maxRows, int width, Activations gateUp, Activations hidden) {
        this.be = be;
        this.experts = experts;
        this.glu = glu;
        this.gateUp = gateUp;
        this.hidden = hidden;
        this.routerLogits = be.allocate(maxRows, experts.count());
        this.expertIn = be.allocate(maxRows, width);
        this.expertOut = be.allocate(maxRows, width);
        this.out = be.allocate(maxRows, width);
        this.probabilities = new float[maxRows * experts.count()];
        this.chosen = new int[maxRows * experts.used()];
        this.weights = new float[maxRows * experts.used()];
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
        int[] rows = new int[n];
        float[] scales = new float[n];
        for (int slot = 0; slot < used; slot++) {
            for (int e = 0; e < experts.count(); e++) {
                int m = 0;
                for (int t = 0; t < n; t++) {
                    if (chosen[t * used + slot] == e) {
                        rows[m] = t;
                        scales[m++] = weights[t * used + slot];
                    }
                }
                if (m == 0) {
                    continue;
                }
                int[] mine = Arrays.copyOf(rows, m);
                be.gatherRows(in, mine, expertIn);
                be.matmul(w.gateUp().get(e), expertIn, m, gateUp);
                be.glu(glu, gateUp, m, hidden);
                be.matmul(w.down().get(e), hidden, m, expertOut);
                be.scatterRows(expertOut, mine, scales, slot > 0, out);
            }
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
                    if (!taken(t, j, e) && (best < 0 || probabilities[base + e] > probabilities[base + best])) {
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

    private boolean taken(int t, int slots, int expert) {
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
        for (Activations a : new Activations[] {routerLogits, expertIn, expertOut, out}) {
            a.close();
        }
    }
}
