package com.llmserve.engine.tokenizer;

/**
 * Incremental detokenization for streaming: feed the generated tokens one by one and send what
 * each call returns. Text is released only in whole characters, so a character whose UTF-8 bytes
 * are spread over several byte tokens (emoji, CJK through byte fallback) appears once its last
 * byte has arrived. Bytes that can no longer form a character become U+FFFD as soon as that is
 * certain; {@link #finish()} flushes whatever is still held back at the end of the sequence.
 *
 * <p>Each token contributes the bytes of {@link Tokenizer#tokenBytes(int)}, so control tokens add
 * nothing. The concatenation of all returned strings equals {@link Tokenizer#decode(int[])} of the
 * same tokens. Not thread-safe: one decoder per sequence.
 */
public final class StreamingDecoder {

    private final Tokenizer tokenizer;
    private final Utf8Accumulator accumulator = new Utf8Accumulator();

    StreamingDecoder(Tokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    /** Adds one token and returns the text it completes; empty while a character is incomplete. */
    public String next(int token) {
        return accumulator.append(tokenizer.tokenBytes(token));
    }

    /** Whether bytes of an incomplete character are being held back. */
    public boolean hasPending() {
        return accumulator.hasPending();
    }

    /** Ends the sequence: held-back bytes, which can no longer complete, come out as U+FFFD. */
    public String finish() {
        return accumulator.finish();
    }
}
