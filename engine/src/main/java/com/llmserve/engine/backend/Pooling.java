package com.llmserve.engine.backend;

/**
 * How an encoder turns the rows of one sequence into one vector, for {@link Backend#pool}. The
 * names and GGUF ids are llama.cpp's {@code llama_pooling_type}.
 */
public enum Pooling {
    /** The mean of the sequence's rows (sentence-transformers models such as all-MiniLM). */
    MEAN(1),
    /** The first row, where BERT puts its {@code [CLS]} token (BGE models). */
    CLS(2),
    /** The last row (decoder-style embedders). */
    LAST(3);

    private final int ggufId;

    Pooling(int ggufId) {
        this.ggufId = ggufId;
    }

    /** The value of {@code <arch>.pooling_type} that selects this pooling. */
    public int ggufId() {
        return ggufId;
    }
}
