package com.llmserve.engine.model;

import java.util.List;

/**
 * A text-embedding model loaded onto a backend: token ids in, one L2-normalised vector per input
 * out. Batch-first: one {@link #embed} call takes many inputs of different lengths and runs them
 * together, as many per forward pass as the scratch buffers hold, so a service can merge the
 * inputs of concurrent requests into one call. Not thread-safe; one engine loop (or one caller at a
 * time) drives it.
 */
public interface EmbeddingModel extends AutoCloseable {

    /** {@code general.architecture}, e.g. {@code bert}. */
    String architecture();

    /** Length of every returned vector. */
    int dimensions();

    /** The most tokens one input may have, special tokens included. */
    int contextLength();

    /**
     * Embeds each input, in order. An input is the token ids as the model's tokenizer encodes them
     * with its special tokens ({@code [CLS] ... [SEP]} for BERT). Inputs attend only to
     * themselves, so a vector does not depend on which other inputs share the call.
     *
     * @return one fresh array of {@link #dimensions()} floats per input, L2-normalised
     * @throws InputTooLongException    when an input has more than {@link #contextLength()} tokens;
     *                                  nothing is computed then
     * @throws IllegalArgumentException for an empty input or a token id outside the vocabulary
     */
    float[][] embed(List<int[]> inputs);

    /** Installs a probe that sees named intermediate activations (parity debugging); {@link ForwardProbe#NONE} by default. */
    void setProbe(ForwardProbe probe);

    @Override
    void close();
}
