package com.llmserve.app.generation;

import java.util.List;

/**
 * A generated token with its log-probabilities, as the API reports it.
 *
 * @param id         token id
 * @param text       its text (the raw piece; a lone byte of a multi-byte character shows as U+FFFD)
 * @param bytes      its raw UTF-8 bytes, which may be part of a character
 * @param logprob    its log-probability
 * @param top        the most likely alternatives, best first (empty unless asked)
 * @param textOffset where its text starts in the choice's text
 */
public record OutputToken(int id, String text, byte[] bytes, float logprob, List<Alternative> top, int textOffset) {

    /** One of the most likely tokens at a position. */
    public record Alternative(int id, String text, byte[] bytes, float logprob) {
    }
}
