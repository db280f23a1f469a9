package com.llmserve.gpu.spi;

import static com.llmserve.gpu.spi.CTypes.C_INT;
import static com.llmserve.gpu.spi.CTypes.C_POINTER;
import static com.llmserve.gpu.spi.CTypes.C_SIZE_T;

import com.llmserve.gpu.BlasType;
import com.llmserve.gpu.Transpose;
import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * The BLAS calls the runtime makes (a handle's life, its workspace, GEMM), bound from one vendor's
 * library (cuBLAS, rocBLAS) by the names and numbers in that vendor's binding holder, which binds
 * them when it loads so the binding checks see them. The handle calls have one C signature in
 * both libraries; GEMM takes {@link #GEMM}, cuBLAS's {@code cublasGemmEx}, to which a holder adapts
 * its own (rocBLAS's writes a separate D). {@link BlasHandle} makes the calls.
 */
public final class BlasCalls {

    /** The exported names of the handle calls; no workspace call where the library manages its own. */
    public record Names(String create, String setStream, String destroy, Optional<String> setWorkspace) {}

    /** The vendor's numbers for the GEMM's operations, data types, FP32 compute and default algorithm. */
    public record Codes(int opNone, int opTranspose, int f32, int f16, int bf16, int compute32F, int algorithmDefault) {

        int op(Transpose t) {
            return t == Transpose.NONE ? opNone : opTranspose;
        }

        int type(BlasType t) {
            return switch (t) {
                case F32 -> f32;
                case F16 -> f16;
                case BF16 -> bf16;
            };
        }
    }

    /**
     * {@code status gemm(handle, opA, opB, m, n, k, const void* alpha, const void* A, type, lda,
     * const void* B, type, ldb, const void* beta, void* C, type, ldc, computeType, algorithm)}.
     */
    public static final FunctionDescriptor GEMM = FunctionDescriptor.of(
            C_INT, C_POINTER, C_INT, C_INT, C_INT, C_INT, C_INT, C_POINTER, C_POINTER, C_INT, C_INT, C_POINTER, C_INT,
            C_INT, C_POINTER, C_POINTER, C_INT, C_INT, C_INT, C_INT);

    final NativeLibrary library;
    final Codes codes;
    final BoundCall create; // (handle* out)
    final BoundCall setStream; // (handle, stream)
    final BoundCall destroy; // (handle)
    final Optional<BoundCall> setWorkspace; // (handle, void* workspace, size_t bytes)
    final BoundCall gemm;

    private BlasCalls(NativeLibrary library, Names names, Codes codes, String gemmName, MethodHandle gemm) {
        if (!gemm.type().equals(GEMM.toMethodType())) {
            throw new IllegalArgumentException(gemmName + " is adapted to " + gemm.type() + ", not " + GEMM);
        }
        this.library = library;
        this.codes = codes;
        this.create = BoundCall.bind(library, names.create(), C_POINTER);
        this.setStream = BoundCall.bind(library, names.setStream(), C_POINTER, C_POINTER);
        this.destroy = BoundCall.bind(library, names.destroy(), C_POINTER);
        this.setWorkspace = names.setWorkspace().map(n -> BoundCall.bind(library, n, C_POINTER, C_POINTER, C_SIZE_T));
        this.gemm = new BoundCall(gemmName, gemm);
    }

    /**
     * Binds the handle calls by {@code names}; {@code gemm} is the vendor's GEMM, bound by the holder
     * (so its own signature is checked) and adapted to {@link #GEMM}.
     */
    public static BlasCalls bind(NativeLibrary library, Names names, Codes codes, String gemmName, MethodHandle gemm) {
        return new BlasCalls(library, names, codes, gemmName, gemm);
    }
}
