package com.llmserve.gpu;

/** Element types of GEMM operands. Compute is always FP32, which both vendors offer for all three. */
public enum BlasType {
    F32(4),
    F16(2),
    BF16(2);

    private final int bytes;

    BlasType(int bytes) {
        this.bytes = bytes;
    }

    public int bytes() {
        return bytes;
    }
}
