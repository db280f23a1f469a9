package com.llmserve.gpu.cuda;

import static com.llmserve.gpu.spi.CTypes.*;

import com.llmserve.gpu.spi.BlasCalls;
import com.llmserve.gpu.spi.NativeLibrary;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Map;
import java.util.Optional;

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
                    + "cublasComputeType_t, cublasGemmAlgo_t)");

    public static final int CUBLAS_STATUS_SUCCESS = 0;
    public static final int CUBLAS_STATUS_ALLOC_FAILED = 3;
    public static final int CUBLAS_OP_N = 0;
    public static final int CUBLAS_OP_T = 1;
    public static final int CUDA_R_32F = 0;
    public static final int CUDA_R_16F = 2;
    public static final int CUDA_R_16BF = 14;
    public static final int CUBLAS_COMPUTE_32F = 68;
    public static final int CUBLAS_GEMM_DEFAULT = -1;

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

    /** The calls the runtime makes, by their cuBLAS names; its GEMM is the one the others adapt to. */
    public static final BlasCalls CALLS = BlasCalls.bind(
            LIBRARY,
            new BlasCalls.Names(
                    "cublasCreate_v2", "cublasSetStream_v2", "cublasDestroy_v2", Optional.of("cublasSetWorkspace_v2")),
            new BlasCalls.Codes(
                    CUBLAS_OP_N,
                    CUBLAS_OP_T,
                    CUDA_R_32F,
                    CUDA_R_16F,
                    CUDA_R_16BF,
                    CUBLAS_COMPUTE_32F,
                    CUBLAS_GEMM_DEFAULT),
            "cublasGemmEx",
            LIBRARY.downcall("cublasGemmEx", BlasCalls.GEMM));
}
