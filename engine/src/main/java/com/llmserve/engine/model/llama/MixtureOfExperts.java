package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Glu;

/**
 * A mixture-of-experts feed-forward as llama.cpp's {@code build_moe_ffn} computes it with softmax
 * gating: the router's logits go through a softmax, each token takes its {@code used} most likely
 * experts, their probabilities are renormalized to sum to 1 (then scaled), and the token's output
 * is the weighted sum of those experts' SwiGLU/GeGLU feed-forwards. gpt-oss's mixture differs by
 * data: a router bias, the softmax over the chosen experts' logits only ({@link Experts#gating()}),
 * a bias per expert on its gate, up and down products, and its clamped SwiGLU.
 *
 * <p>Everything stays on the backend: {@link Backend#routeExperts} chooses and weights the experts,
 * the products run as (token, expert) pairs through {@link Backend#expertMatmul}, which reads each
 * chosen expert once for all its pairs, and {@link Backend#combineExperts} adds the weighted outputs
 * in slot order (every token's first choice, then its second...), the order in which llama.cpp adds
 * them. A GPU thus needs no host round trip per layer, and a decode step stays one graph. Tokens go
 * in passes of as many pairs as the scratch rows hold.
 */
final class MixtureOfExperts implements AutoCloseable {

    private final Backend be;
    private final Experts experts;
    private final Glu glu;
    private final int width;
    private final int feedForward;
    private final Activations gateUp;
    private final Activations hidden;
    private final Activations routerLogits;
    private final Activations routing;
    private final Activations expertOut;
    private final Activations out;

    /**
     * {@code gateUp} and {@code hidden} are the decoder's feed-forward scratch, shared (the layer has
     * no dense one); their rows bound the pairs of a pass.
     */
    MixtureOfExperts(
            Backend be,
            Experts experts,
            Glu glu,
            int maxRows,
            int width,
            int feedForward,
            Activations gateUp,
            Activations hidden) {
        this.be = be;
        this.experts = experts;
        this.glu = glu;
        this.width = width;
        this.feedForward = feedForward;
        this.gateUp = gateUp;
        this.hidden = hidden;
        int perPass = perPass();
        this.routerLogits = be.allocate(maxRows, experts.count());
        this.routing = be.allocate(perPass, 2 * experts.used());
        this.expertOut = be.allocate(perPass * experts.used(), width);
        this.out = be.allocate(maxRows, width);
    }

    /** Tokens per pass: their pairs fill the shared scratch rows. */
    private int perPass() {
        return Math.max(1, gateUp.rows() / experts.used());
    }

    /** The mixture's output of the last {@link #forward}, rows {@code [0, n)}. */
    Activations out() {
        return out;
    }

    /** Runs the layer's experts over rows {@code [0, n)} of {@code in} (the normalized input) into {@link #out()}. */
    void forward(DecoderWeights.ExpertWeights w, Activations in, int n) {
        be.matmul(w.router(), in, n, routerLogits);
        if (w.routerBias() != null) {
            be.addBias(routerLogits, w.routerBias(), n); // gpt-oss
        }
        int used = experts.used();
        int perPass = perPass();
        for (int t0 = 0; t0 < n; t0 += perPass) {
            int m = Math.min(perPass, n - t0);
            be.routeExperts(routerLogits, t0, m, experts.scale(), experts.gating(), routing);
            be.expertMatmul(w.gateUp(), routing, m, t0, false, in, gateUp);
            if (w.gateBias() != null) {
                be.addExpertBias(gateUp, 0, feedForward, w.gateBias(), routing, m);
            }
            if (w.upBias() != null) {
                be.addExpertBias(gateUp, feedForward, feedForward, w.upBias(), routing, m);
            }
            be.glu(glu, gateUp, m * used, hidden);
            be.expertMatmul(w.down(), routing, m, 0, true, hidden, expertOut);
            if (w.downBias() != null) {
                be.addExpertBias(expertOut, 0, width, w.downBias(), routing, m);
            }
            be.combineExperts(expertOut, routing, t0, m, out);
        }
    }

    @Override
    public void close() {
        for (Activations a : new Activations[] {routerLogits, routing, expertOut, out}) {
            a.close();
        }
    }
}
