package com.llmserve.engine.model;

import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufTensor;
import com.llmserve.engine.gguf.GgufValue;
import java.util.Arrays;

/**
 * Shape checks of a model's tensors at load, with messages that name the tensor and both shapes:
 * a file whose tensors disagree with its metadata is refused there, not by every request later.
 */
public record TensorShapes(GgufFile f) {

    /** {@code t}, which must have exactly the shape {@code expected}. */
    public GgufTensor check(GgufTensor t, long... expected) {
        long[] actual = t.shape();
        if (!Arrays.equals(actual, expected)) {
            throw new InvalidModelException(
                    f.path(),
                    "tensor '" + t.name() + "' has shape " + Arrays.toString(actual) + ", expected "
                            + Arrays.toString(expected));
        }
        return t;
    }

    /**
     * A table with a row of {@code width} per token of the tokenizer ({@code token_embd.weight},
     * {@code output.weight}): as many rows as {@code tokenizer.ggml.tokens} has tokens, as llama.cpp
     * requires. More rows than tokens would let the model pick ids the tokenizer cannot write.
     *
     * @return the vocabulary's size
     */
    public int vocabularyTable(GgufTensor t, long width) {
        long[] shape = t.shape();
        if (shape.length != 2 || shape[0] != width || shape[1] < 1 || shape[1] > Integer.MAX_VALUE) {
            throw new InvalidModelException(
                    f.path(),
                    "tensor '" + t.name() + "' has shape " + Arrays.toString(shape) + ", expected [" + width
                            + ", vocab]");
        }
        int tokens = f.metadata()
                .findArray("tokenizer.ggml.tokens")
                .map(GgufValue.GgufArray::length)
                .orElse((int) shape[1]);
        if (shape[1] != tokens) {
            throw new InvalidModelException(
                    f.path(),
                    "tensor '" + t.name() + "' has " + shape[1] + " token rows, but the tokenizer has " + tokens
                            + " tokens (tokenizer.ggml.tokens)");
        }
        return tokens;
    }
}
