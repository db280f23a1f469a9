package com.llmserve.engine.model;

import com.llmserve.engine.backend.Activations;

/**
 * Sees named intermediate activations of a forward pass, named as llama.cpp's graph callbacks name
 * them ({@code attn_norm}, {@code kqv_out}, {@code ffn_inp}, {@code ffn_norm}, {@code l_out}, ...),
 * so that a dump can be compared tensor by tensor with llama.cpp's.
 */
@FunctionalInterface
public interface ForwardProbe {

    ForwardProbe NONE = (name, layer, activations, rows) -> {};

    /** Called with the first {@code rows} rows of {@code activations} valid; {@code layer} is -1 outside layers. */
    void tap(String name, int layer, Activations activations, int rows);
}
