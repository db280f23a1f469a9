package com.llmserve.engine.backend;

import com.llmserve.engine.gguf.GgmlType;

/** A tensor whose ggml type no backend computes with; the message names tensor, type and the supported ones. */
public final class UnsupportedTensorTypeException extends RuntimeException {

    public UnsupportedTensorTypeException(String tensor, GgmlType type) {
        super("tensor '" + tensor + "' has type " + type + ", which the backends do not support (supported: "
                + Backend.WEIGHT_TYPES + ")");
    }
}
