package com.llmserve.app.generation;

import java.util.List;

/**
 * New output of one choice: text released since the previous delta (never part of a stop string
 * or of a UTF-8 character), the tokens that produced it, and the finish reason on its last delta.
 *
 * @param index        the choice's index in the response ({@code prompt * n + choice})
 * @param text         new text, possibly empty
 * @param tokens       tokens whose text starts in this delta, with log-probabilities when asked
 * @param finishReason {@code stop} or {@code length} on the choice's last delta, else null
 */
public record Delta(int index, String text, List<OutputToken> tokens, String finishReason) {

    public boolean finished() {
        return finishReason != null;
    }
}
