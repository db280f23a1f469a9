package com.llmserve.engine.chat.tools;

/**
 * Tells apart the pieces of one output in one format, first to last. It is asked while the output
 * is still being generated, and then answers only what no later text can change: a stream cut
 * anywhere gives the pieces that the whole text gives, except that content and reasoning may come
 * in more pieces. Implementations may keep state between pieces, so each serves one output.
 */
interface Scanner {

    /**
     * The piece that starts at {@code from} ({@code < text.length()}).
     *
     * @param ended whether the output is complete; when it is not, text may be added to its end
     * @return the piece, or null when it depends on text not yet generated (never null when ended)
     */
    Piece next(String text, int from, boolean ended);
}
