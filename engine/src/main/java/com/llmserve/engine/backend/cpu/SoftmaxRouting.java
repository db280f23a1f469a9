package com.llmserve.engine.backend.cpu;

/**
 * A mixture's softmax gating as llama.cpp's {@code build_moe_ffn} computes it: the softmax of a
 * token's router logits, its {@code used} most likely experts (the lower id first among equals),
 * their probabilities divided by their sum (at least a half's smallest normal) and scaled.
 */
final class SoftmaxRouting {

    /** The smallest sum of the chosen probabilities llama.cpp divides by. */
    private static final float MIN_WEIGHT_SUM = 6.103515625e-5f;

    private SoftmaxRouting() {}

    /**
     * Routes {@code logits[from, from + count)} into {@code out[at, at + 2 * used)}: the chosen ids
     * (as floats), then their weights. {@code probabilities} is scratch of {@code count} floats.
     */
    static void route(
            float[] logits, int from, int count, int used, float scale, float[] probabilities, float[] out, int at) {
        softmax(logits, from, count, probabilities);
        double sum = 0;
        for (int j = 0; j < used; j++) {
            int best = -1;
            for (int e = 0; e < count; e++) {
                if (probabilities[e] >= 0 && (best < 0 || probabilities[e] > probabilities[best])) {
                    best = e;
                }
            }
            out[at + j] = best;
            out[at + used + j] = best < 0 ? 0 : probabilities[best];
            if (best >= 0) {
                sum += probabilities[best];
                probabilities[best] = -1; // out of the running (probabilities are never negative)
            }
        }
        float divisor = Math.max((float) sum, MIN_WEIGHT_SUM);
        for (int j = 0; j < used; j++) {
            out[at + used + j] = out[at + used + j] / divisor * scale;
        }
    }

    /**
     * llama.cpp's {@code SOFTMAX_WEIGHT} gating (gpt-oss): the {@code used} largest of
     * {@code logits[from, from + count)} (the lower id first among equals) into
     * {@code out[at, at + used)} as floats, and the softmax of those logits, times {@code scale},
     * into {@code out[at + used, at + 2 * used)}. {@code chosen} is scratch of {@code count} floats.
     */
    static void routeTopK(
            float[] logits, int from, int count, int used, float scale, float[] chosen, float[] out, int at) {
        System.arraycopy(logits, from, chosen, 0, count);
        float[] top = new float[used];
        for (int j = 0; j < used; j++) {
            int best = -1;
            for (int e = 0; e < count; e++) {
                if (!Float.isNaN(chosen[e]) && (best < 0 || chosen[e] > chosen[best])) {
                    best = e;
                }
            }
            out[at + j] = best;
            top[j] = best < 0 ? Float.NEGATIVE_INFINITY : chosen[best];
            if (best >= 0) {
                chosen[best] = Float.NaN; // out of the running
            }
        }
        float[] weights = new float[used];
        softmax(top, 0, used, weights);
        for (int j = 0; j < used; j++) {
            out[at + used + j] = scale == 1f ? weights[j] : weights[j] * scale;
        }
    }

    /** As ggml's {@code soft_max}: the maximum subtracted, exponentials summed in double, scaled by the float inverse. */
    private static void softmax(float[] x, int from, int n, float[] out) {
        float max = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            max = Math.max(max, x[from + i]);
        }
        double sum = 0;
        for (int i = 0; i < n; i++) {
            float e = (float) Math.exp(x[from + i] - max);
            out[i] = e;
            sum += e;
        }
        float inv = (float) (1.0 / sum);
        for (int i = 0; i < n; i++) {
            out[i] *= inv;
        }
    }
}
