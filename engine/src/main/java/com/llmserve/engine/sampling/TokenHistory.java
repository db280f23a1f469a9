package com.llmserve.engine.sampling;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The tokens a sequence has seen, kept sparse for the penalties: every id of prompt and output
 * (repetition penalty) and how often each occurs in the output (presence and frequency penalties).
 */
public final class TokenHistory {

    private final Set<Integer> seen = new HashSet<>();
    private final Map<Integer, Integer> outputCounts = new HashMap<>();

    public TokenHistory(int[] prompt) {
        for (int t : prompt) {
            seen.add(t);
        }
    }

    /** Records a generated token. */
    public void accept(int token) {
        seen.add(token);
        outputCounts.merge(token, 1, Integer::sum);
    }

    Set<Integer> seen() {
        return seen;
    }

    Map<Integer, Integer> outputCounts() {
        return outputCounts;
    }
}
