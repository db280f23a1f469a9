package com.llmserve.gpu.hip;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.gpu.spi.BlasCalls;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** rocBLAS's GEMM, adapted to the runtime's (cuBLAS's) signature, writes C in place. */
class RocblasGemmTests {

    private static final List<Object> seen = new ArrayList<>();

    /** Stands in for {@code rocblas_gemm_ex}: records the 24 arguments it is called with. */
    static int record(Object[] arguments) {
        seen.clear();
        seen.addAll(List.of(arguments));
        return 0;
    }

    @Test
    void dIsCAndTheSolutionAndFlagsAreTheDefaults() throws Throwable {
        MethodType rocblasType =
                rocblas_h.LIBRARY.functions().get("rocblas_gemm_ex").toMethodType();
        MethodHandle recorder = MethodHandles.lookup()
                .findStatic(RocblasGemmTests.class, "record", MethodType.methodType(int.class, Object[].class))
                .asCollector(Object[].class, rocblasType.parameterCount())
                .asType(rocblasType);
        MethodHandle gemm = rocblas_h.gemmInPlace(recorder);
        assertThat(gemm.type()).isEqualTo(BlasCalls.GEMM.toMethodType());

        MemorySegment handle = MemorySegment.ofAddress(1), alpha = MemorySegment.ofAddress(2);
        MemorySegment a = MemorySegment.ofAddress(3), b = MemorySegment.ofAddress(4);
        MemorySegment beta = MemorySegment.ofAddress(5), c = MemorySegment.ofAddress(6);
        int rc = (int)
                gemm.invokeExact(handle, 111, 112, 7, 8, 9, alpha, a, 150, 10, b, 151, 11, beta, c, 152, 12, 160, 0);

        assertThat(rc).isZero();
        assertThat(seen)
                .containsExactly(
                        handle, 111, 112, 7, 8, 9, alpha, a, 150, 10, b, 151, 11, beta, c, 152, 12, c, 152, 12, 160, 0,
                        0, 0);
    }
}
