package com.llmserve.engine.backend;

/**
 * Sequence spans of an encoder batch: {@code starts[s] .. starts[s+1]} are the rows of sequence
 * {@code s}, as flash-attention's {@code cu_seqlens}. The checks every backend applies to them.
 */
public final class Spans {

    private Spans() {}

    /** Checks that spans are non-empty, ascending from row 0 and fit every capacity; returns the rows they cover. */
    public static int check(int[] starts, int sequences, int... capacities) {
        if (sequences < 1 || starts.length <= sequences || starts[0] != 0) {
            throw new IllegalArgumentException(
                    "spans of " + sequences + " sequences need " + (sequences + 1) + " ascending starts from row 0");
        }
        for (int s = 0; s < sequences; s++) {
            if (starts[s + 1] <= starts[s]) {
                throw new IllegalArgumentException(
                        "sequence " + s + " spans no rows: starts " + starts[s] + ", " + starts[s + 1]);
            }
        }
        for (int c : capacities) {
            if (starts[sequences] > c) {
                throw new IllegalArgumentException(
                        starts[sequences] + " rows do not fit activations of " + c + " rows");
            }
        }
        return starts[sequences];
    }
}
