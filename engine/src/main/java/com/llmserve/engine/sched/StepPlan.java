package com.llmserve.engine.sched;

import java.util.List;

/**
 * What one forward pass computes: for each scheduled sequence, the next {@code count} of its
 * tokens starting at its first uncomputed one. Tokens and blocks only; the runner turns it into a
 * {@code Batch}.
 */
record StepPlan(List<Chunk> chunks, int tokens) {

    /**
     * @param sample whether the chunk reaches the end of the sequence, so its last row's logits
     *               give the next token
     */
    record Chunk(Sequence sequence, int count, boolean sample) {}

    boolean isEmpty() {
        return chunks.isEmpty();
    }
}
