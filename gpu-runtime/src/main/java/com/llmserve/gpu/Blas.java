package com.llmserve.gpu;

import com.llmserve.gpu.spi.BlasDriver;
import com.llmserve.gpu.spi.Gemm;

/**
 * rocBLAS or cuBLAS, bound to one stream (obtained from {@link Stream#blas()}). Matrices are
 * column-major as in BLAS: a row-major {@code C[M][N] = A[M][K] * B[K][N]} is the column-major
 * {@code C^T = B^T * A^T}, i.e. {@code gemm(NONE, NONE, N, M, K, 1, B, N, A, K, 0, C, N)}.
 * Compute is FP32 whatever the operand types. Operand extents are checked against the buffers
 * before the call, because an out-of-range GEMM corrupts device memory silently.
 */
public final class Blas {

    private final Stream stream;
    private final BlasDriver driver;
    private final DeviceBuffer workspace;

    private Blas(Stream stream, BlasDriver driver, DeviceBuffer workspace) {
        this.stream = stream;
        this.driver = driver;
        this.workspace = workspace;
    }

    static Blas create(Stream stream) {
        BlasDriver driver = stream.device().driver().createBlas(stream.handle());
        DeviceBuffer workspace = null;
        try {
            long bytes = stream.device().options().blasWorkspaceBytes();
            if (driver.wantsWorkspace() && bytes > 0) {
                workspace = stream.device().allocate(bytes);
                driver.setWorkspace(workspace.address(), bytes);
            }
            return new Blas(stream, driver, workspace);
        } catch (RuntimeException e) {
            if (workspace != null) workspace.close();
            driver.close();
            throw e;
        }
    }

    /** {@code C = alpha * op(A) * op(B) + beta * C}, with op(A) m x k, op(B) k x n, C m x n. */
    public void gemm(
            Transpose transA,
            Transpose transB,
            int m,
            int n,
            int k,
            float alpha,
            DeviceBuffer a,
            BlasType aType,
            int lda,
            DeviceBuffer b,
            BlasType bType,
            int ldb,
            float beta,
            DeviceBuffer c,
            BlasType cType,
            int ldc) {
        gemm(transA, transB, m, n, k, alpha, a, 0, aType, lda, b, 0, bType, ldb, beta, c, 0, cType, ldc);
    }

    /**
     * {@link #gemm(Transpose, Transpose, int, int, int, float, DeviceBuffer, BlasType, int, DeviceBuffer,
     * BlasType, int, float, DeviceBuffer, BlasType, int) gemm} on operands that start {@code *Offset}
     * bytes into their buffers: a band of a matrix, or an output written a column block at a time.
     */
    public void gemm(
            Transpose transA,
            Transpose transB,
            int m,
            int n,
            int k,
            float alpha,
            DeviceBuffer a,
            long aOffset,
            BlasType aType,
            int lda,
            DeviceBuffer b,
            long bOffset,
            BlasType bType,
            int ldb,
            float beta,
            DeviceBuffer c,
            long cOffset,
            BlasType cType,
            int ldc) {
        checkOperand("A", a, aOffset, aType, transA == Transpose.NONE ? m : k, transA == Transpose.NONE ? k : m, lda);
        checkOperand("B", b, bOffset, bType, transB == Transpose.NONE ? k : n, transB == Transpose.NONE ? n : k, ldb);
        checkOperand("C", c, cOffset, cType, m, n, ldc);
        driver.gemm(new Gemm(
                transA,
                transB,
                m,
                n,
                k,
                alpha,
                a.address() + aOffset,
                aType,
                lda,
                b.address() + bOffset,
                bType,
                ldb,
                beta,
                c.address() + cOffset,
                cType,
                ldc));
    }

    public Stream stream() {
        return stream;
    }

    void close() {
        try {
            driver.close();
        } finally {
            if (workspace != null) workspace.close();
        }
    }

    /** A rows x cols column-major operand with leading dimension ld must fit its buffer. */
    private static void checkOperand(
            String name, DeviceBuffer buffer, long offset, BlasType type, int rows, int cols, int ld) {
        if (rows < 0 || cols < 0) throw new IllegalArgumentException("negative GEMM extent for " + name);
        if (offset < 0 || offset % type.bytes() != 0) {
            throw new IllegalArgumentException(
                    "offset " + offset + " of " + name + " is not a whole " + type + " element");
        }
        if (ld < Math.max(1, rows)) {
            throw new IllegalArgumentException(
                    "leading dimension of " + name + " is " + ld + ", below its " + rows + " rows");
        }
        long lastElement = (long) ld * Math.max(0, cols - 1) + rows;
        long needed = offset + lastElement * type.bytes();
        if (needed > buffer.byteSize()) {
            throw new IllegalArgumentException(
                    name + " needs " + needed + " bytes, its buffer has " + buffer.byteSize());
        }
    }
}
