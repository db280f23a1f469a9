package com.llmserve.gpu.hip;

import static com.llmserve.gpu.spi.CTypes.*;

import com.llmserve.gpu.spi.NativeLibrary;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * rocBLAS ({@code rocblas/rocblas.h}): handle, stream binding and the mixed-precision GEMMs.
 * {@code rocblas_gemm_ex} is also a function-like macro (for obsolete workspace arguments); the
 * exported symbol is bound.
 */
public final class rocblas_h {

    private rocblas_h() {}

    /** The header these declarations mirror; the binding checks compile against it. */
    public static final String HEADER = "rocblas/rocblas.h";

    /** rocBLAS 4 (ROCm 6). */
    public static final NativeLibrary LIBRARY = NativeLibrary.load("librocblas.so.4");

    public static final int rocblas_status_success = 0;
    public static final int rocblas_status_memory_error = 5;
    public static final int rocblas_operation_none = 111;
    public static final int rocblas_operation_transpose = 112;
    public static final int rocblas_datatype_f16_r = 150;
    public static final int rocblas_datatype_f32_r = 151;
    public static final int rocblas_datatype_bf16_r = 168;
    public static final int rocblas_gemm_algo_standard = 0;

    private static final MethodHandle rocblas_create_handle$MH =
            LIBRARY.downcall("rocblas_create_handle", FunctionDescriptor.of(C_INT, C_POINTER));

    /** {@code rocblas_status rocblas_create_handle(rocblas_handle* handle)} */
    public static int rocblas_create_handle(MemorySegment handle) {
        try {
            return (int) rocblas_create_handle$MH.invokeExact(handle);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle rocblas_destroy_handle$MH =
            LIBRARY.downcall("rocblas_destroy_handle", FunctionDescriptor.of(C_INT, C_POINTER));

    /** {@code rocblas_status rocblas_destroy_handle(rocblas_handle handle)} */
    public static int rocblas_destroy_handle(MemorySegment handle) {
        try {
            return (int) rocblas_destroy_handle$MH.invokeExact(handle);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle rocblas_set_stream$MH =
            LIBRARY.downcall("rocblas_set_stream", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));

    /** {@code rocblas_status rocblas_set_stream(rocblas_handle handle, hipStream_t stream)} */
    public static int rocblas_set_stream(MemorySegment handle, MemorySegment stream) {
        try {
            return (int) rocblas_set_stream$MH.invokeExact(handle, stream);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle rocblas_gemm_ex$MH = LIBRARY.downcall(
            "rocblas_gemm_ex",
            FunctionDescriptor.of(
                    C_INT, C_POINTER, C_INT, C_INT, C_INT, C_INT, C_INT, C_POINTER, C_POINTER, C_INT, C_INT, C_POINTER,
                    C_INT, C_INT, C_POINTER, C_POINTER, C_INT, C_INT, C_POINTER, C_INT, C_INT, C_INT, C_INT, C_INT,
                    C_INT));

    /** {@code rocblas_status rocblas_gemm_ex(handle, transA, transB, m, n, k, alpha, a, a_type, lda, b, b_type, ldb, beta, c, c_type, ldc, d, d_type, ldd, compute_type, algo, int32_t solution_index, uint32_t flags)} */
    public static int rocblas_gemm_ex(
            MemorySegment handle,
            int transA,
            int transB,
            int m,
            int n,
            int k,
            MemorySegment alpha,
            MemorySegment a,
            int a_type,
            int lda,
            MemorySegment b,
            int b_type,
            int ldb,
            MemorySegment beta,
            MemorySegment c,
            int c_type,
            int ldc,
            MemorySegment d,
            int d_type,
            int ldd,
            int compute_type,
            int algo,
            int solution_index,
            int flags) {
        try {
            return (int) rocblas_gemm_ex$MH.invokeExact(
                    handle,
                    transA,
                    transB,
                    m,
                    n,
                    k,
                    alpha,
                    a,
                    a_type,
                    lda,
                    b,
                    b_type,
                    ldb,
                    beta,
                    c,
                    c_type,
                    ldc,
                    d,
                    d_type,
                    ldd,
                    compute_type,
                    algo,
                    solution_index,
                    flags);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle rocblas_gemm_strided_batched_ex$MH = LIBRARY.downcall(
            "rocblas_gemm_strided_batched_ex",
            FunctionDescriptor.of(
                    C_INT, C_POINTER, C_INT, C_INT, C_INT, C_INT, C_INT, C_POINTER, C_POINTER, C_INT, C_INT, C_LONG,
                    C_POINTER, C_INT, C_INT, C_LONG, C_POINTER, C_POINTER, C_INT, C_INT, C_LONG, C_POINTER, C_INT,
                    C_INT, C_LONG, C_INT, C_INT, C_INT, C_INT, C_INT));

    /** {@code rocblas_status rocblas_gemm_strided_batched_ex(..., rocblas_stride stride_a, ..., rocblas_int batch_count, rocblas_datatype compute_type, rocblas_gemm_algo algo, int32_t solution_index, uint32_t flags)} */
    public static int rocblas_gemm_strided_batched_ex(
            MemorySegment handle,
            int transA,
            int transB,
            int m,
            int n,
            int k,
            MemorySegment alpha,
            MemorySegment a,
            int a_type,
            int lda,
            long stride_a,
            MemorySegment b,
            int b_type,
            int ldb,
            long stride_b,
            MemorySegment beta,
            MemorySegment c,
            int c_type,
            int ldc,
            long stride_c,
            MemorySegment d,
            int d_type,
            int ldd,
            long stride_d,
            int batch_count,
            int compute_type,
            int algo,
            int solution_index,
            int flags) {
        try {
            return (int) rocblas_gemm_strided_batched_ex$MH.invokeExact(
                    handle,
                    transA,
                    transB,
                    m,
                    n,
                    k,
                    alpha,
                    a,
                    a_type,
                    lda,
                    stride_a,
                    b,
                    b_type,
                    ldb,
                    stride_b,
                    beta,
                    c,
                    c_type,
                    ldc,
                    stride_c,
                    d,
                    d_type,
                    ldd,
                    stride_d,
                    batch_count,
                    compute_type,
                    algo,
                    solution_index,
                    flags);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle rocblas_status_to_string$MH =
            LIBRARY.downcall("rocblas_status_to_string", FunctionDescriptor.of(C_POINTER, C_INT));

    /** {@code const char* rocblas_status_to_string(rocblas_status status)} */
    public static MemorySegment rocblas_status_to_string(int status) {
        try {
            return (MemorySegment) rocblas_status_to_string$MH.invokeExact(status);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }
}
