package com.llmserve.engine.sampling;

import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Picks tokens from logits for one sequence. The stages run in the order vLLM and Hugging Face
 * use: logit bias, penalties, then (unless greedy) temperature, top-k, top-p, min-p, and a draw
 * from what is left. Holds its own random generator, seeded from the parameters when they carry a
 * seed, so a seeded request repeats exactly. One sampler per sequence; not thread-safe.
 */
public final class Sampler {

    private final SamplingParams params;
    private final int vocabSize;
    private final SplittableRandom random;
    private final float[] work;
    private final float[] prob;
    private final int[] order;
    private final int[] heapStorage;

    public Sampler(SamplingParams params, int vocabSize) {
        this.params = params;
        this.vocabSize = vocabSize;
        this.random =
                params.seed().isPresent() ? new SplittableRandom(params.seed().getAsLong()) : new SplittableRandom();
        this.work = new float[vocabSize];
        this.prob = new float[vocabSize];
        this.order = new int[vocabSize];
        this.heapStorage = new int[vocabSize];
        for (Integer id : params.logitBias().keySet()) {
            if (id < 0 || id >= vocabSize) {
                throw new IllegalArgumentException(
                        "logit_bias token id " + id + " is outside the vocabulary of " + vocabSize);
            }
        }
    }

    public SamplingParams params() {
        return params;
    }

    /** Samples from {@code logits[offset .. offset+vocabSize)}, leaving them untouched. */
    public int sample(float[] logits, int offset, TokenHistory history) {
        float[] l = work;
        System.arraycopy(logits, offset, l, 0, vocabSize);
        return choose(l, history);
    }

    /**
     * Samples among the tokens a grammar allows: those set in {@code allowed} (one bit per id) and
     * those in {@code alsoAllowed} (stop tokens, once the grammar's text is complete). The rest are
     * dropped before any other stage, so penalties, truncation and the draw see only legal tokens.
     *
     * @return the token, or -1 when nothing is allowed
     */
    public int sample(float[] logits, int offset, TokenHistory history, long[] allowed, Set<Integer> alsoAllowed) {
        if (params.choosesLargestLogit()) {
            return largestAllowed(logits, offset, allowed, alsoAllowed);
        }
        float[] l = work;
        System.arraycopy(logits, offset, l, 0, vocabSize);
        boolean any = false;
        for (int w = 0, base = 0; base < vocabSize; w++, base += 64) {
            long bits = allowed[w];
            any |= bits != 0;
            if (bits == -1L) {
                continue;
            }
            int end = Math.min(64, vocabSize - base);
            for (int i = 0; i < end; i++) {
                if ((bits >>> i & 1) == 0) {
                    l[base + i] = Float.NEGATIVE_INFINITY;
                }
            }
        }
        for (int t : alsoAllowed) {
            if (t >= 0 && t < vocabSize) {
                l[t] = logits[offset + t];
                any = true;
            }
        }
        return any ? choose(l, history) : -1;
    }

    /** Greedy over the allowed tokens, read in place: no copy, no masking pass (ties to the lower id). */
    private int largestAllowed(float[] logits, int offset, long[] allowed, Set<Integer> alsoAllowed) {
        int best = -1;
        float bestValue = Float.NEGATIVE_INFINITY;
        for (int w = 0, base = 0; base < vocabSize; w++, base += 64) {
            for (long bits = allowed[w]; bits != 0; bits &= bits - 1) {
                int t = base + Long.numberOfTrailingZeros(bits);
                float v = logits[offset + t];
                if (best < 0 || v > bestValue) {
                    best = t;
                    bestValue = v;
                }
            }
        }
        for (int t : alsoAllowed) {
            if (t >= 0 && t < vocabSize) {
                float v = logits[offset + t];
                if (best < 0 || v > bestValue || (v == bestValue && t < best)) {
                    best = t;
                    bestValue = v;
                }
            }
        }
        return best;
    }

    private int choose(float[] l, TokenHistory history) {
        for (Map.Entry<Integer, Float> b : params.logitBias().entrySet()) {
            l[b.getKey()] += b.getValue();
        }
        applyPenalties(l, history);
        if (params.greedy()) {
            return argmax(l, vocabSize);
        }
        float invT = 1f / params.temperature();
        float max = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < vocabSize; i++) {
            l[i] *= invT;
            max = Math.max(max, l[i]);
        }
        if (max == Float.NEGATIVE_INFINITY) {
            throw new IllegalStateException("every token has been biased to -infinity");
        }
        double total = 0;
        for (int i = 0; i < vocabSize; i++) {
            prob[i] = (float) Math.exp(l[i] - max);
            total += prob[i];
        }
        boolean truncate = (params.topK() > 0 && params.topK() < vocabSize) || params.topP() < 1f || params.minP() > 0f;
        if (!truncate) {
            return draw(total);
        }
        int kept = truncate(total);
        double keptMass = 0;
        for (int i = 0; i < kept; i++) {
            keptMass += prob[order[i]];
        }
        double r = random.nextDouble() * keptMass;
        for (int i = 0; i < kept; i++) {
            r -= prob[order[i]];
            if (r < 0) {
                return order[i];
            }
        }
        return order[kept - 1];
    }

    private void applyPenalties(float[] l, TokenHistory history) {
        if (history == null) {
            return;
        }
        float rep = params.repetitionPenalty();
        if (rep != 1f) {
            for (int id : history.seen()) {
                if (id >= 0 && id < vocabSize) {
                    l[id] = l[id] > 0 ? l[id] / rep : l[id] * rep;
                }
            }
        }
        if (params.presencePenalty() != 0f || params.frequencyPenalty() != 0f) {
            for (Map.Entry<Integer, Integer> e : history.outputCounts().entrySet()) {
                int id = e.getKey();
                if (id >= 0 && id < vocabSize) {
                    l[id] -= params.presencePenalty() + e.getValue() * params.frequencyPenalty();
                }
            }
        }
    }

    /** Draws over the whole vocabulary. */
    private int draw(double total) {
        double r = random.nextDouble() * total;
        for (int i = 0; i < vocabSize; i++) {
            r -= prob[i];
            if (r < 0) {
                return i;
            }
        }
        return argmax(prob, vocabSize);
    }

    /**
     * Puts the surviving candidates, most likely first, at the head of {@link #order} and returns
     * how many survive top-k, then top-p (renormalised over the top-k set), then min-p. Candidates
     * come off a heap in order, so only as many are sorted as the truncation keeps.
     */
    private int truncate(double total) {
        int k = params.topK() > 0 ? Math.min(params.topK(), vocabSize) : vocabSize;
        ProbabilityHeap heap = new ProbabilityHeap(prob, heapStorage, vocabSize);
        double mass = total;
        if (k < vocabSize) {
            // the top-k set, in order, then its own mass for top-p
            mass = 0;
            for (int i = 0; i < k; i++) {
                order[i] = heap.pop();
                mass += prob[order[i]];
            }
        }
        double cumulative = 0;
        float first = Float.NaN;
        for (int i = 0; i < k; i++) {
            int id = k < vocabSize ? order[i] : (order[i] = heap.pop());
            float p = prob[id];
            if (i == 0) {
                first = p;
            } else if (p < params.minP() * first) {
                return i;
            }
            cumulative += p;
            if (cumulative >= params.topP() * mass) {
                return i + 1;
            }
        }
        return k;
    }

    static int argmax(float[] v, int n) {
        int best = 0;
        for (int i = 1; i < n; i++) {
            if (v[i] > v[best]) {
                best = i;
            }
        }
        return best;
    }
}
