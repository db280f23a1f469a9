package com.llmserve.engine.tokenizer;

/**
 * A vocabulary that cannot be used: an unknown {@code tokenizer.ggml.model} or pre-tokenizer, a
 * missing or inconsistent {@code tokenizer.ggml.*} key, a special token id outside the vocabulary
 * that the model needs. The message names the key or value at fault.
 */
public final class TokenizerException extends RuntimeException {

    public TokenizerException(String message) {
        super(message);
    }
}
