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
 */
public record AttentionShape(int heads, int kvHeads, int headDim, float scale, boolean causal, int slidingWindow) {

    public AttentionShape {
        if (heads <= 0 || kvHeads <= 0 || heads % kvHeads != 0) {
            throw new IllegalArgumentException(
                    "query heads " + heads + " must be a positive multiple of kv heads " + kvHeads);
        }
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
