package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ArgumentsSource;

/** rocBLAS / cuBLAS GEMMs against a double-precision CPU reference (column-major, as BLAS). */
@RequiresGpu
class BlasGpuTests {

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void f32GemmMatchesTheCpuWithAndWithoutTranspose(Device device) throws Exception {
        int m = 192, n = 130, k = 320;
        for (Transpose ta : Transpose.values()) {
            int aRows = ta == Transpose.NONE ? m : k, aCols = ta == Transpose.NONE ? k : m;
            float[] a = HostData.randomFloats(aRows * aCols, 11);
            float[] b = HostData.randomFloats(k * n, 12);
            float[] c0 = HostData.randomFloats(m * n, 13);
            double[][] ref = reference(a, ta, aRows, b, c0, m, n, k, 0.5, 2.0);
            try (StreamLease lease = device.streams().lease()) {
                Stream s = lease.stream();
                try (DeviceBuffer da = HostData.upload(s, a);
                        DeviceBuffer db = HostData.upload(s, b);
                        DeviceBuffer dc = HostData.upload(s, c0)) {
                    s.blas()
                            .gemm(
                                    ta,
                                    Transpose.NONE,
                                    m,
                                    n,
                                    k,
                                    0.5f,
                                    da,
                                    BlasType.F32,
                                    aRows,
                                    db,
                                    BlasType.F32,
                                    k,
                                    2.0f,
                                    dc,
                                    BlasType.F32,
                                    m);
                    double err = HostData.maxError(HostData.download(s, dc, m * n), ref[0], ref[1]);
                    GpuReport.line(
                            "gemm f32 %dx%dx%d transA=%s on %s: max error %.2e (relative to sum |a*b|)",
                            m, n, k, ta, device.info().name(), err);
                    assertThat(err).isLessThan(1e-5);
                }
            }
        }
    }

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void f16InputsWithF32OutputMatchTheCpu(Device device) throws Exception {
        int m = 256, n = 64, k = 512;
        float[] a = roundToHalf(HostData.randomFloats(m * k, 21));
        float[] b = roundToHalf(HostData.randomFloats(k * n, 22));
        double[][] ref = reference(a, Transpose.NONE, m, b, new float[m * n], m, n, k, 1, 0);
        try (StreamLease lease = device.streams().lease()) {
            Stream s = lease.stream();
            try (DeviceBuffer da = uploadHalf(s, a);
                    DeviceBuffer db = uploadHalf(s, b);
                    DeviceBuffer dc = device.allocate((long) m * n * 4)) {
                s.blas()
                        .gemm(
                                Transpose.NONE,
                                Transpose.NONE,
                                m,
                                n,
                                k,
                                1f,
                                da,
                                BlasType.F16,
                                m,
                                db,
                                BlasType.F16,
                                k,
                                0f,
                                dc,
                                BlasType.F32,
                                m);
                double err = HostData.maxError(HostData.download(s, dc, m * n), ref[0], ref[1]);
                GpuReport.line(
                        "gemm f16->f32 %dx%dx%d on %s: max error %.2e",
                        m, n, k, device.info().name(), err);
                assertThat(err).isLessThan(1e-4);
            }
        }
    }

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void largeF16GemmThroughput(Device device) throws Exception {
        int size = 4096;
        long elems = (long) size * size;
        try (StreamLease lease = device.streams().lease()) {
            Stream s = lease.stream();
            try (DeviceBuffer a = device.allocate(elems * 2);
                    DeviceBuffer b = device.allocate(elems * 2);
                    DeviceBuffer c = device.allocate(elems * 2);
                    Event start = device.createEvent();
                    Event end = device.createEvent()) {
                s.fill(a, (byte) 0x3c); // 0x3c3c: ~1.06 in fp16, finite everywhere
                s.fill(b, (byte) 0x3c);
                s.blas()
                        .gemm(
                                Transpose.NONE,
                                Transpose.NONE,
                                size,
                                size,
                                size,
                                1f,
                                a,
                                BlasType.F16,
                                size,
                                b,
                                BlasType.F16,
                                size,
                                0f,
                                c,
                                BlasType.F16,
                                size);
                s.record(start);
                int iterations = 20;
                for (int i = 0; i < iterations; i++) {
                    s.blas()
                            .gemm(
                                    Transpose.NONE,
                                    Transpose.NONE,
                                    size,
                                    size,
                                    size,
                                    1f,
                                    a,
                                    BlasType.F16,
                                    size,
                                    b,
                                    BlasType.F16,
                                    size,
                                    0f,
                                    c,
                                    BlasType.F16,
                                    size);
                }
                s.record(end);
                end.synchronize();
                double seconds = end.elapsedMillisSince(start) / 1000.0 / iterations;
                GpuReport.line(
                        "gemm f16 (fp32 compute) %d^3 on %s: %.3f ms, %.0f TFLOP/s",
                        size, device.info().name(), seconds * 1e3, 2.0 * size * size * size / seconds / 1e12);
                assertThat(seconds).isPositive();
            }
        }
    }

    /**
     * Neither cuBLAS nor rocBLAS multiplies an f16 A by a bf16 B: the call fails with the library's
     * own status (cublasGetStatusName / rocblas_status_to_string), and the handle works on after it.
     */
    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void aGemmOfOperandTypesTheLibraryDoesNotPairFailsInItsOwnWords(Device device) throws Exception {
        int m = 16, n = 8, k = 32;
        try (StreamLease lease = device.streams().lease()) {
            Stream s = lease.stream();
            try (DeviceBuffer a = device.allocate((long) m * k * 2);
                    DeviceBuffer b = device.allocate((long) k * n * 2);
                    DeviceBuffer c = device.allocate((long) m * n * 4)) {
                s.fill(a, (byte) 0);
                s.fill(b, (byte) 0);
                GpuCallException e =
                        org.assertj.core.api.Assertions.catchThrowableOfType(GpuCallException.class, () -> s.blas()
                                .gemm(
                                        Transpose.NONE,
                                        Transpose.NONE,
                                        m,
                                        n,
                                        k,
                                        1f,
                                        a,
                                        BlasType.F16,
                                        m,
                                        b,
                                        BlasType.BF16,
                                        k,
                                        0f,
                                        c,
                                        BlasType.F32,
                                        m));
                GpuReport.line("gemm f16 x bf16 on %s: %s", device.info().name(), e.getMessage());
                assertThat(e.library()).isIn("cublas", "rocblas");
                assertThat(e.call()).isIn("cublasGemmEx", "rocblas_gemm_ex");
                assertThat(e.codeName()).isNotBlank().doesNotStartWith("status ");
                assertThat(e.vendorMessage()).isNotBlank().isNotEqualTo("no message");
                assertThat(e.isContextLost()).isFalse();
                s.blas()
                        .gemm(
                                Transpose.NONE,
                                Transpose.NONE,
                                m,
                                n,
                                k,
                                1f,
                                a,
                                BlasType.F16,
                                m,
                                b,
                                BlasType.F16,
                                k,
                                0f,
                                c,
                                BlasType.F32,
                                m);
                float[] zeros = HostData.download(s, c, m * n);
                for (float v : zeros) assertThat(v).isZero();
            }
        }
    }

    /** {@code alpha * op(A) B + beta * C0} in double, and the sum of |terms| each output is relative to. */
    private static double[][] reference(
            float[] a, Transpose ta, int lda, float[] b, float[] c0, int m, int n, int k, double alpha, double beta) {
        double[] out = new double[m * n];
        double[] scale = new double[m * n];
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < m; i++) {
                double sum = 0, mag = 0;
                for (int p = 0; p < k; p++) {
                    double av = ta == Transpose.NONE ? a[i + p * lda] : a[p + i * lda];
                    double term = av * b[p + j * k];
                    sum += term;
                    mag += Math.abs(term);
                }
                out[i + j * m] = alpha * sum + beta * c0[i + j * m];
                scale[i + j * m] = Math.abs(alpha) * mag + Math.abs(beta * c0[i + j * m]);
            }
        }
        return new double[][] {out, scale};
    }

    private static float[] roundToHalf(float[] values) {
        float[] out = new float[values.length];
        for (int i = 0; i < values.length; i++) out[i] = Float.float16ToFloat(Float.floatToFloat16(values[i]));
        return out;
    }

    private static DeviceBuffer uploadHalf(Stream s, float[] values) {
        DeviceBuffer buf = s.device().allocate(values.length * 2L);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(values.length * 2L, 16);
            for (int i = 0; i < values.length; i++)
                host.set(ValueLayout.JAVA_SHORT, i * 2L, Float.floatToFloat16(values[i]));
            s.copyToDevice(host, buf);
            s.synchronize();
        }
        return buf;
    }
}
