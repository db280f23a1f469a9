package com.llmserve.gpu.cuda;

import static com.llmserve.gpu.cuda.CudaStatus.CUBLAS;
import static com.llmserve.gpu.cuda.cublas_api_h.*;

import com.llmserve.gpu.BlasType;
import com.llmserve.gpu.GpuUnavailableException;
import com.llmserve.gpu.Transpose;
import com.llmserve.gpu.spi.BlasDriver;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** A cuBLAS handle bound to one stream; alpha/beta live in its own host scratch (host pointer mode). */
final class Cublas implements BlasDriver {

    private final CudaDevice device;
    private final MemorySegment handle;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment alpha = arena.allocate(ValueLayout.JAVA_FLOAT);
    private final MemorySegment beta = arena.allocate(ValueLayout.JAVA_FLOAT);

    private Cublas(CudaDevice device, MemorySegment handle) {
        this.device = device;
        this.handle = handle;
    }

    static Cublas create(CudaDevice device, MemorySegment stream) {
        if (!LIBRARY.isLoaded()) {
            throw new GpuUnavailableException(
                    "cuBLAS not loaded: " + LIBRARY.loadFailure().orElse(""));
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            CUBLAS.check(cublasCreate_v2(out), "cublasCreate_v2");
            MemorySegment handle = out.get(ValueLayout.ADDRESS, 0);
            try {
                CUBLAS.check(cublasSetStream_v2(handle, stream), "cublasSetStream_v2");
            } catch (RuntimeException e) {
                cublasDestroy_v2(handle);
                throw e;
            }
            return new Cublas(device, handle);
        }
    }

    /** cuBLAS version as an integer (e.g. 130100), for diagnostics. */
    int version() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ValueLayout.JAVA_INT);
            CUBLAS.check(cublasGetVersion_v2(handle, out), "cublasGetVersion_v2");
            return out.get(ValueLayout.JAVA_INT, 0);
        }
    }

    @Override
    public boolean wantsWorkspace() {
        return true;
    }

    @Override
    public void setWorkspace(long pointer, long bytes) {
        device.bind();
        CUBLAS.check(cublasSetWorkspace_v2(handle, MemorySegment.ofAddress(pointer), bytes), "cublasSetWorkspace_v2");
    }

    @Override
    public void gemm(
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
            int ldc) {
        device.bind();
        this.alpha.set(ValueLayout.JAVA_FLOAT, 0, alpha);
        this.beta.set(ValueLayout.JAVA_FLOAT, 0, beta);
        CUBLAS.check(
                cublasGemmEx(
                        handle,
                        op(transA),
                        op(transB),
                        m,
                        n,
                        k,
                        this.alpha,
                        MemorySegment.ofAddress(a),
                        type(aType),
                        lda,
                        MemorySegment.ofAddress(b),
                        type(bType),
                        ldb,
                        this.beta,
                        MemorySegment.ofAddress(c),
                        type(cType),
                        ldc,
                        CUBLAS_COMPUTE_32F,
                        CUBLAS_GEMM_DEFAULT),
                "cublasGemmEx");
    }

    @Override
    public void gemmStridedBatched(
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
            int batchCount) {
        device.bind();
        this.alpha.set(ValueLayout.JAVA_FLOAT, 0, alpha);
        this.beta.set(ValueLayout.JAVA_FLOAT, 0, beta);
        CUBLAS.check(
                cublasGemmStridedBatchedEx(
                        handle,
                        op(transA),
                        op(transB),
                        m,
                        n,
                        k,
                        this.alpha,
                        MemorySegment.ofAddress(a),
                        type(aType),
                        lda,
                        strideA,
                        MemorySegment.ofAddress(b),
                        type(bType),
                        ldb,
                        strideB,
                        this.beta,
                        MemorySegment.ofAddress(c),
                        type(cType),
                        ldc,
                        strideC,
                        batchCount,
                        CUBLAS_COMPUTE_32F,
                        CUBLAS_GEMM_DEFAULT),
                "cublasGemmStridedBatchedEx");
    }

    private static int op(Transpose t) {
        return t == Transpose.NONE ? CUBLAS_OP_N : CUBLAS_OP_T;
    }

    private static int type(BlasType t) {
        return switch (t) {
            case F32 -> CUDA_R_32F;
            case F16 -> CUDA_R_16F;
            case BF16 -> CUDA_R_16BF;
        };
    }

    @Override
    public void close() {
        try {
            device.bind();
            CUBLAS.check(cublasDestroy_v2(handle), "cublasDestroy_v2");
        } finally {
            arena.close();
        }
    }
}
