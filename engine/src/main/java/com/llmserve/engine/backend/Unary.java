package com.llmserve.engine.backend;

/**
 * Element-wise functions of one activation, {@code x[t][i] = f(x[t][i])}, run in place by
 * {@link Backend#unary}. The CPU backend computes each constant in its own code; a GPU backend
 * launches the kernel named {@code ls_<name>_f32(float* x, int n)} (a test checks that every
 * constant has one), so a new function is a constant here, its CPU code and its kernel.
 */
public enum Unary {
    /**
     * GELU in its tanh form {@code 0.5 v (1 + tanh(sqrt(2/pi) v (1 + 0.044715 v^2)))}, the form
     * llama.cpp's BERT graph uses (Hugging Face's BERT uses erf). The CPU backend reproduces ggml's
     * CPU kernel, which reads a table indexed by the input rounded to half and returns a half
     * (inputs at or below -10 give 0, at or above 10 give the input); a GPU computes it in float32,
     * as ggml's GPU kernels do: the difference stays far inside the embedding goldens' tolerances.
     */
    GELU,
    /** {@code tanh(v)}: with {@link Backend#scale}, gemma's logit soft-capping {@code c * tanh(v / c)}. */
    TANH
}
