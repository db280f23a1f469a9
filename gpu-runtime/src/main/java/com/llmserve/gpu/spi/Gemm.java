package com.llmserve.gpu.spi;

import com.llmserve.gpu.BlasType;
import com.llmserve.gpu.Transpose;

/**
 * One GEMM as the BLAS libraries take it, column-major: {@code C = alpha op(A) op(B) + beta C} with
 * op(A) {@code m x k}, op(B) {@code k x n}, C {@code m x n}, operands at device addresses, computed
 * in FP32 whatever the operand types.
 */
public record Gemm(
        Transpose transA,
        Transpose transB,
        int m,
        int n,
        int k,
        float alpha,
        long a,
        BlasType aType,
        int lda,
        long b,
        BlasType bType,
        int ldb,
        float beta,
        long c,
        BlasType cType,
        int ldc) {}
