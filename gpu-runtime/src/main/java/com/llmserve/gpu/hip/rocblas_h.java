package com.llmserve.gpu.hip;

import static com.llmserve.gpu.spi.CTypes.*;

import com.llmserve.gpu.spi.BlasCalls;
import com.llmserve.gpu.spi.NativeLibrary;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.Optional;

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

    private static final MethodHandle rocblas_gemm_ex$MH = LIBRARY.downcall(
            "rocblas_gemm_ex",
            FunctionDescriptor.of(
                    C_INT, C_POINTER, C_INT, C_INT, C_INT, C_INT, C_INT, C_POINTER, C_POINTER, C_INT, C_INT, C_POINTER,
                    C_INT, C_INT, C_POINTER, C_POINTER, C_INT, C_INT, C_POINTER, C_INT, C_INT, C_INT, C_INT, C_INT,
                    C_INT));

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

    /**
     * {@code rocblas_gemm_ex} as {@link BlasCalls#GEMM}: D is C (in place, BLAS's meaning), the
     * default solution and no flags.
     */
    static MethodHandle gemmInPlace(MethodHandle rocblasGemmEx) {
        MethodHandle defaults = MethodHandles.insertArguments(rocblasGemmEx, 22, 0, 0);
        int[] fromGemm = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 14, 15, 16, 17, 18};
        return MethodHandles.permuteArguments(defaults, BlasCalls.GEMM.toMethodType(), fromGemm);
    }

    /** The calls the runtime makes, by their rocBLAS names; rocBLAS manages its own workspace. */
    public static final BlasCalls CALLS = BlasCalls.bind(
            LIBRARY,
            new BlasCalls.Names(
                    "rocblas_create_handle", "rocblas_set_stream", "rocblas_destroy_handle", Optional.empty()),
            new BlasCalls.Codes(
                    rocblas_operation_none,
                    rocblas_operation_transpose,
                    rocblas_datatype_f32_r,
                    rocblas_datatype_f16_r,
                    rocblas_datatype_bf16_r,
                    rocblas_datatype_f32_r,
                    rocblas_gemm_algo_standard),
            "rocblas_gemm_ex",
            gemmInPlace(rocblas_gemm_ex$MH));
}
