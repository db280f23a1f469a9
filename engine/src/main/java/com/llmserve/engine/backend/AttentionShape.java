package com.llmserve.engine.backend;

/**
 * Where the heads sit in a fused q|k|v activation and how they are grouped.
 *
 * @param heads         query heads
 * @param kvHeads       key/value heads; query head {@code h} reads kv head {@code h / (heads / kvHeads)}
 * @param headDim       dimensions per head (keys and values alike)
 * @param scale         factor applied to q·k, usually {@code 1 / sqrt(headDim)}
 * @param causal        whether a row sees only positions up to its own
 * @param slidingWindow when positive, a row sees only the last {@code slidingWindow} positions
 * @param softcap       when positive, each scaled score {@code s} becomes {@code softcap * tanh(s / softcap)}
 *                      before the softmax (gemma2's attention logit soft-capping)
 * @param sinks         per query head, a logit that joins the softmax's denominator without a value
 *                      ({@code exp(sink - max)} added to the sum), or null for none (gpt-oss's attention sinks)
 */
public record AttentionShape(
        int heads,
        int kvHeads,
        int headDim,
        float scale,
        boolean causal,
        int slidingWindow,
        float softcap,
        float[] sinks) {

    public AttentionShape {
        if (heads <= 0 || kvHeads <= 0 || heads % kvHeads != 0) {
            throw new IllegalArgumentException(
                    "query heads " + heads + " must be a positive multiple of kv heads " + kvHeads);
        }
        if (!(softcap >= 0) || Float.isInfinite(softcap)) {
            throw new IllegalArgumentException("attention soft-cap " + softcap + " must be finite and not negative");
        }
        if (sinks != null && sinks.length != heads) {
            throw new IllegalArgumentException(sinks.length + " attention sinks for " + heads + " query heads");
        }
    }

    public AttentionShape(
            int heads, int kvHeads, int headDim, float scale, boolean causal, int slidingWindow, float softcap) {
        this(heads, kvHeads, headDim, scale, causal, slidingWindow, softcap, null);
    }

    /** This shape with per-head attention sinks (null for none). */
    public AttentionShape withSinks(float[] s) {
        return new AttentionShape(heads, kvHeads, headDim, scale, causal, slidingWindow, softcap, s);
    }

    public AttentionShape(int heads, int kvHeads, int headDim, float scale, boolean causal, int slidingWindow) {
        this(heads, kvHeads, headDim, scale, causal, slidingWindow, 0f);
    }

    /**
     * The factor on q·k before the cap's tanh: {@link #scale()} divided by the cap, as ggml's flash
     * attention divides it (so {@code softcap * tanh(q·k * cappedScale)}); the scale itself without one.
     */
    public float cappedScale() {
        return softcap > 0 ? scale / softcap : scale;
    }

    public int queryDim() {
        return heads * headDim;
    }

    public int kvDim() {
        return kvHeads * headDim;
    }

    public int keyCol() {
        return queryDim();
    }

    public int valueCol() {
        return queryDim() + kvDim();
    }
}
