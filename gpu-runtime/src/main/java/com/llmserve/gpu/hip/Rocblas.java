package com.llmserve.gpu.hip;

import static com.llmserve.gpu.hip.HipStatus.ROCBLAS;
import static com.llmserve.gpu.hip.rocblas_h.*;

import com.llmserve.gpu.BlasType;
import com.llmserve.gpu.GpuUnavailableException;
import com.llmserve.gpu.Transpose;
import com.llmserve.gpu.spi.BlasDriver;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** A rocBLAS handle bound to one stream; alpha/beta in its own host scratch (host pointer mode, the default). */
final class Rocblas implements BlasDriver {

    private final Runnable select;
    private final MemorySegment handle;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment alpha = arena.allocate(ValueLayout.JAVA_FLOAT);
    private final MemorySegment beta = arena.allocate(ValueLayout.JAVA_FLOAT);

    private Rocblas(Runnable select, MemorySegment handle) {
        this.select = select;
        this.handle = handle;
    }

    static Rocblas create(Runnable select, MemorySegment stream) {
        if (!LIBRARY.isLoaded())
            throw new GpuUnavailableException(
                    "rocBLAS not loaded: " + LIBRARY.loadFailure().orElse(""));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            ROCBLAS.check(rocblas_create_handle(out), "rocblas_create_handle");
            MemorySegment handle = out.get(ValueLayout.ADDRESS, 0);
            try {
                ROCBLAS.check(rocblas_set_stream(handle, stream), "rocblas_set_stream");
            } catch (RuntimeException e) {
                rocblas_destroy_handle(handle);
                throw e;
            }
            return new Rocblas(select, handle);
        }
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
        select.run();
        this.alpha.set(ValueLayout.JAVA_FLOAT, 0, alpha);
        this.beta.set(ValueLayout.JAVA_FLOAT, 0, beta);
        MemorySegment cPtr = MemorySegment.ofAddress(c);
        // rocBLAS writes D and reads C; in place (D = C) is the BLAS semantics we expose.
        ROCBLAS.check(
                rocblas_gemm_ex(
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
                        cPtr,
                        type(cType),
                        ldc,
                        cPtr,
                        type(cType),
                        ldc,
                        rocblas_datatype_f32_r,
                        rocblas_gemm_algo_standard,
                        0,
                        0),
                "rocblas_gemm_ex");
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
        select.run();
        this.alpha.set(ValueLayout.JAVA_FLOAT, 0, alpha);
        this.beta.set(ValueLayout.JAVA_FLOAT, 0, beta);
        MemorySegment cPtr = MemorySegment.ofAddress(c);
        ROCBLAS.check(
                rocblas_gemm_strided_batched_ex(
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
                        cPtr,
                        type(cType),
                        ldc,
                        strideC,
                        cPtr,
                        type(cType),
                        ldc,
                        strideC,
                        batchCount,
                        rocblas_datatype_f32_r,
                        rocblas_gemm_algo_standard,
                        0,
                        0),
                "rocblas_gemm_strided_batched_ex");
    }

    private static int op(Transpose t) {
        return t == Transpose.NONE ? rocblas_operation_none : rocblas_operation_transpose;
    }

    private static int type(BlasType t) {
        return switch (t) {
            case F32 -> rocblas_datatype_f32_r;
            case F16 -> rocblas_datatype_f16_r;
            case BF16 -> rocblas_datatype_bf16_r;
        };
    }

    @Override
    public void close() {
        try {
            select.run();
            ROCBLAS.check(rocblas_destroy_handle(handle), "rocblas_destroy_handle");
        } finally {
            arena.close();
        }
    }
}
