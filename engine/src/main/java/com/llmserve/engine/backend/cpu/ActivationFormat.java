package com.llmserve.engine.backend.cpu;

/**
 * How the activations a weight type is multiplied with are quantized first, as llama.cpp's CPU
 * backend does (a type's {@code vec_dot_type}). Doing the same keeps results close to llama.cpp's,
 * and, because every kernel path of a type sees the same quantized inputs, keeps a sequence's
 * logits the same whether it runs alone or in a batch.
 */
enum ActivationFormat {
    /** F32, F16, BF16 weights: activations stay float. */
    FLOAT,
    /** Q4_0, Q4_1, Q5_0, Q5_1, Q8_0: blocks of 32, scale {@code amax/127} kept as f16, {@code round_half_even(x*127/amax)}. */
    Q8_0,
    /** K-quants: blocks of 256, float scale from the signed value of largest magnitude ({@code quantize_row_q8_K}). */
    Q8_K;

    /** Elements per quantization block; activation rows must be a multiple of it. */
    int blockSize() {
        return switch (this) {
            case FLOAT -> 1;
            case Q8_0 -> 32;
            case Q8_K -> 256;
        };
    }
}
