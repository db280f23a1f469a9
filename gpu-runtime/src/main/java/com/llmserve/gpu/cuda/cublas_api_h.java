package com.llmserve.gpu.cuda;

import static com.llmserve.gpu.spi.CTypes.*;

import com.llmserve.gpu.spi.NativeLibrary;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Map;

/**
 * cuBLAS ({@code cublas_api.h}, the v2 API): handle, stream binding, workspace and the
 * mixed-precision GEMMs. {@code cublas_v2.h} maps {@code cublasCreate} to {@code cublasCreate_v2}
 * and so on; the exported names are bound.
 */
public final class cublas_api_h {

    private cublas_api_h() {}

    /** The header these declarations mirror; the binding checks compile against it. */
    public static final String HEADER = "cublas_api.h";

    /** cuBLAS 13 (CUDA 13), then 12. */
    public static final NativeLibrary LIBRARY = NativeLibrary.load("libcublas.so.13", "libcublas.so.12");

    /**
     * C prototypes of the symbols that C++ also overloads ({@code cublas_api.h} adds inline
     * overloads taking the legacy {@code cudaDataType} compute type): the binding checks select
     * the C function with these exact types, so a header change to them fails the check too.
     */
    public static final Map<String, String> CPP_OVERLOADED = Map.of(
            "cublasGemmEx",
            "cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*, "
                    + "const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*, cudaDataType, int, "
                    + "cublasComputeType_t, cublasGemmAlgo_t)",
            "cublasGemmStridedBatchedEx",
            "cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*, "
                    + "const void*, cudaDataType, int, long long int, const void*, cudaDataType, int, long long int, const void*, "
                    + "void*, cudaDataType, int, long long int, int, cublasComputeType_t, cublasGemmAlgo_t)");

    public static final int CUBLAS_STATUS_SUCCESS = 0;
    public static final int CUBLAS_STATUS_ALLOC_FAILED = 3;
    public static final int CUBLAS_OP_N = 0;
    public static final int CUBLAS_OP_T = 1;
    public static final int CUDA_R_32F = 0;
    public static final int CUDA_R_16F = 2;
    public static final int CUDA_R_16BF = 14;
    public static final int CUBLAS_COMPUTE_32F = 68;
    public static final int CUBLAS_GEMM_DEFAULT = -1;

    private static final MethodHandle cublasCreate_v2$MH =
            LIBRARY.downcall("cublasCreate_v2", FunctionDescriptor.of(C_INT, C_POINTER));

    /** {@code cublasStatus_t cublasCreate_v2(cublasHandle_t* handle)} */
    public static int cublasCreate_v2(MemorySegment handle) {
        try {
            return (int) cublasCreate_v2$MH.invokeExact(handle);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cublasDestroy_v2$MH =
            LIBRARY.downcall("cublasDestroy_v2", FunctionDescriptor.of(C_INT, C_POINTER));

    /** {@code cublasStatus_t cublasDestroy_v2(cublasHandle_t handle)} */
    public static int cublasDestroy_v2(MemorySegment handle) {
        try {
            return (int) cublasDestroy_v2$MH.invokeExact(handle);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cublasGetVersion_v2$MH =
            LIBRARY.downcall("cublasGetVersion_v2", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));

    /** {@code cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int* version)} */
    public static int cublasGetVersion_v2(MemorySegment handle, MemorySegment version) {
        try {
            return (int) cublasGetVersion_v2$MH.invokeExact(handle, version);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cublasSetStream_v2$MH =
            LIBRARY.downcall("cublasSetStream_v2", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));

    /** {@code cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId)} */
    public static int cublasSetStream_v2(MemorySegment handle, MemorySegment streamId) {
        try {
            return (int) cublasSetStream_v2$MH.invokeExact(handle, streamId);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cublasSetWorkspace_v2$MH =
            LIBRARY.downcall("cublasSetWorkspace_v2", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_LONG));

    /** {@code cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void* workspace, size_t workspaceSizeInBytes)} */
    public static int cublasSetWorkspace_v2(MemorySegment handle, MemorySegment workspace, long workspaceSizeInBytes) {
        try {
            return (int) cublasSetWorkspace_v2$MH.invokeExact(handle, workspace, workspaceSizeInBytes);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cublasGemmEx$MH = LIBRARY.downcall(
            "cublasGemmEx",
            FunctionDescriptor.of(
                    C_INT, C_POINTER, C_INT, C_INT, C_INT, C_INT, C_INT, C_POINTER, C_POINTER, C_INT, C_INT, C_POINTER,
                    C_INT, C_INT, C_POINTER, C_POINTER, C_INT, C_INT, C_INT, C_INT));

    /** {@code cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const void* alpha, const void* A, cudaDataType Atype, int lda, const void* B, cudaDataType Btype, int ldb, const void* beta, void* C, cudaDataType Ctype, int ldc, cublasComputeType_t computeType, cublasGemmAlgo_t algo)} */
    public static int cublasGemmEx(
            MemorySegment handle,
            int transa,
            int transb,
            int m,
            int n,
            int k,
            MemorySegment alpha,
            MemorySegment A,
            int Atype,
            int lda,
            MemorySegment B,
            int Btype,
            int ldb,
            MemorySegment beta,
            MemorySegment C,
            int Ctype,
            int ldc,
            int computeType,
            int algo) {
        try {
            return (int) cublasGemmEx$MH.invokeExact(
                    handle,
                    transa,
                    transb,
                    m,
                    n,
                    k,
                    alpha,
                    A,
                    Atype,
                    lda,
                    B,
                    Btype,
                    ldb,
                    beta,
                    C,
                    Ctype,
                    ldc,
                    computeType,
                    algo);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cublasGemmStridedBatchedEx$MH = LIBRARY.downcall(
            "cublasGemmStridedBatchedEx",
            FunctionDescriptor.of(
                    C_INT, C_POINTER, C_INT, C_INT, C_INT, C_INT, C_INT, C_POINTER, C_POINTER, C_INT, C_INT, C_LONG,
                    C_POINTER, C_INT, C_INT, C_LONG, C_POINTER, C_POINTER, C_INT, C_INT, C_LONG, C_INT, C_INT, C_INT));

    /** {@code cublasStatus_t cublasGemmStridedBatchedEx(..., long long int strideA, ..., int batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo)} */
    public static int cublasGemmStridedBatchedEx(
            MemorySegment handle,
            int transa,
            int transb,
            int m,
            int n,
            int k,
            MemorySegment alpha,
            MemorySegment A,
            int Atype,
            int lda,
            long strideA,
            MemorySegment B,
            int Btype,
            int ldb,
            long strideB,
            MemorySegment beta,
            MemorySegment C,
            int Ctype,
            int ldc,
            long strideC,
            int batchCount,
            int computeType,
            int algo) {
        try {
            return (int) cublasGemmStridedBatchedEx$MH.invokeExact(
                    handle,
                    transa,
                    transb,
                    m,
                    n,
                    k,
                    alpha,
                    A,
                    Atype,
                    lda,
                    strideA,
                    B,
                    Btype,
                    ldb,
                    strideB,
                    beta,
                    C,
                    Ctype,
                    ldc,
                    strideC,
                    batchCount,
                    computeType,
                    algo);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cublasGetStatusName$MH =
            LIBRARY.downcall("cublasGetStatusName", FunctionDescriptor.of(C_POINTER, C_INT));

    /** {@code const char* cublasGetStatusName(cublasStatus_t status)} */
    public static MemorySegment cublasGetStatusName(int status) {
        try {
            return (MemorySegment) cublasGetStatusName$MH.invokeExact(status);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cublasGetStatusString$MH =
            LIBRARY.downcall("cublasGetStatusString", FunctionDescriptor.of(C_POINTER, C_INT));

    /** {@code const char* cublasGetStatusString(cublasStatus_t status)} */
    public static MemorySegment cublasGetStatusString(int status) {
        try {
            return (MemorySegment) cublasGetStatusString$MH.invokeExact(status);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }
}
