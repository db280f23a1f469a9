package com.llmserve.gpu.spi;

import com.llmserve.gpu.BlasType;
import com.llmserve.gpu.Transpose;

/** A BLAS handle (rocBLAS or cuBLAS) bound to one stream. Column-major, as both libraries are. */
public interface BlasDriver extends AutoCloseable {

    void gemm(
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
            int ldc);

    void gemmStridedBatched(
            Transpose transA,
            Transpose transB,
            int m,
            int n,
            int k,
            float alpha,
            long a,
            BlasType aType,
            int lda,
            long strideA,
            long b,
            BlasType bType,
            int ldb,
            long strideB,
            float beta,
            long c,
            BlasType cType,
            int ldc,
            long strideC,
            int batchCount);

    /**
     * True when the handle should be given a device workspace, so no GEMM allocates inside a
     * captured graph (cuBLAS); false when the library manages its own (rocBLAS).
     */
    default boolean wantsWorkspace() {
        return false;
    }

    /** Gives the handle a workspace of {@code bytes} at {@code pointer}, owned by the caller. */
    default void setWorkspace(long pointer, long bytes) {}

    @Override
    void close();
}
