package com.llmserve.engine.tokenizer;

/**
 * Per-token attribute bits, as llama.cpp derives them from {@code tokenizer.ggml.token_type} and
 * then adjusts by token text and model name. They are bits, not an enum, because a token can
 * carry several: a NORMAL token whose text looks like an end-of-turn marker also becomes CONTROL.
 */
final class TokenAttr {

    static final int UNDEFINED = 0;
    static final int UNKNOWN = 1;
    static final int UNUSED = 1 << 1;
    static final int NORMAL = 1 << 2;
    static final int CONTROL = 1 << 3;
    static final int USER_DEFINED = 1 << 4;
    static final int BYTE = 1 << 5;
    /** Whitespace before the token is dropped when it is split out of text. */
    static final int LSTRIP = 1 << 7;
    /** Whitespace after the token is dropped when it is split out of text. */
    static final int RSTRIP = 1 << 8;

    private TokenAttr() {}

    /** Maps a GGUF token type (llama.cpp's {@code llama_token_type}) to attribute bits. */
    static int fromGgufType(int type) {
        return switch (type) {
            case 1 -> NORMAL;
            case 2 -> UNKNOWN;
            case 3 -> CONTROL;
            case 4 -> USER_DEFINED;
            case 5 -> UNUSED;
            case 6 -> BYTE;
            default -> UNDEFINED; // 0 = undefined, anything else is not a known type
        };
    }
}
