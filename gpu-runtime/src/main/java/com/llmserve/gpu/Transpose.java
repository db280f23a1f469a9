package com.llmserve.gpu;

/** Whether a GEMM operand is used as stored (column-major, as BLAS sees it) or transposed. */
public enum Transpose {
    NONE,
    TRANSPOSE
}
