package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.gguf.GgmlType;

/** A tensor whose ggml type the CPU backend cannot compute with; the message names tensor and type. */
public final class UnsupportedTensorTypeException extends RuntimeException {

    public UnsupportedTensorTypeException(String tensor, GgmlType type) {
        super("tensor '" + tensor + "' has type " + type + ", which the CPU backend does not support "
                + "(supported: F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K)");
    }
}
