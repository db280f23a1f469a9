package com.llmserve.app.generation;

import com.llmserve.engine.sampling.TokenLogprobs;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
    public record Alternative(int id, String text, byte[] bytes, float logprob) {}

    /** Token {@code token} with its texts from {@code tokenizer}; log-probability 0 and no alternatives when {@code lp} is null. */
    public static OutputToken of(Tokenizer tokenizer, int token, TokenLogprobs lp, int textOffset) {
        byte[] bytes = tokenizer.tokenBytes(token);
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (lp == null) {
            return new OutputToken(token, text, bytes, 0f, List.of(), textOffset);
        }
        List<Alternative> top = new ArrayList<>(lp.topTokens().length);
        for (int i = 0; i < lp.topTokens().length; i++) {
            byte[] b = tokenizer.tokenBytes(lp.topTokens()[i]);
            top.add(new Alternative(lp.topTokens()[i], new String(b, StandardCharsets.UTF_8), b, lp.topLogprobs()[i]));
        }
        return new OutputToken(token, text, bytes, lp.logprob(), List.copyOf(top), textOffset);
    }
}
