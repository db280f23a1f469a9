package com.llmserve.engine.grammar;

import java.util.Arrays;

/**
 * What one walk of the vocabulary finds for a parse state: the tokens allowed next, those that
 * bring the text closer to complete, and those that take it further away (with how far), so the
 * tokens that fit a sequence's remaining budget are found without walking again.
 *
 * @param allowed   one bit per token that may come next
 * @param closing   one bit per allowed token after which fewer characters are needed to complete
 * @param distance  the fewest characters that complete the text from this state
 * @param raising   the allowed tokens after which more characters are needed, farthest first
 * @param raisedTo  how many characters each of {@code raising} then needs
 */
record StateMasks(long[] allowed, long[] closing, int distance, int[] raising, int[] raisedTo) {

    /** The allowed tokens after which at most {@code most} characters remain to be written. */
    long[] within(int most) {
        if (raisedTo.length == 0 || raisedTo[0] <= most) {
            return allowed;
        }
        long[] fit = Arrays.copyOf(allowed, allowed.length);
        for (int i = 0; i < raising.length && raisedTo[i] > most; i++) {
            int t = raising[i];
            fit[t >>> 6] &= ~(1L << t);
        }
        return fit;
    }

    boolean anyClosing() {
        for (long w : closing) {
            if (w != 0) {
                return true;
            }
        }
        return false;
    }
}
