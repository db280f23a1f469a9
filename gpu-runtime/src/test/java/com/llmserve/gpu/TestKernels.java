package com.llmserve.gpu;

import com.llmserve.kernels.Kernel;
import com.llmserve.kernels.KernelConstants;

/** Launches of the production kernels these tests use, shaped as the engine's GPU backend shapes them. */
final class TestKernels {

    private TestKernels() {}

    static final int BLOCK = 256;

    /** {@code out = a + b}; {@code out} may be {@code a} (the engine's residual add). */
    static void vectorAdd(Stream s, DeviceBuffer a, DeviceBuffer b, DeviceBuffer out, int n) {
        s.launch(
                s.device().function(Kernel.VECTOR_ADD_F32),
                LaunchConfig.covering(n, BLOCK),
                KernelArgs.of().pointer(a).pointer(b).pointer(out).i32(n));
    }

    /** One block per row; 256 threads is a whole number of waves at 32 and at 64. */
    static void rmsNorm(Stream s, DeviceBuffer x, DeviceBuffer weight, DeviceBuffer y, int rows, int cols, float eps) {
        s.launch(
                s.device().function(Kernel.RMS_NORM_F32),
                LaunchConfig.of(rows, BLOCK),
                KernelArgs.of().pointer(x).pointer(weight).pointer(y).i32(cols).f32(eps));
    }

    /** Q8_0 activations of {@code total} floats (a multiple of 32): int8 values, a scale and a sum per 32. */
    static void quantizeQ8_0(Stream s, DeviceBuffer x, DeviceBuffer q, DeviceBuffer d, DeviceBuffer sums, int total) {
        s.launch(
                s.device().function(Kernel.QUANTIZE_Q8_0),
                LaunchConfig.covering(total, BLOCK),
                KernelArgs.of().pointer(x).pointer(q).pointer(d).pointer(sums).i32(total));
    }

    /**
     * {@code y = W x} for one token: W of {@code rows x k} Q8_0 weights in the repacked layout (32
     * int8 quants per block in {@code w}, the f16 scales in {@code wd}), x quantized by {@link #quantizeQ8_0}.
     */
    static void gemvQ8_0(
            Stream s,
            DeviceBuffer w,
            DeviceBuffer wd,
            DeviceBuffer xq,
            DeviceBuffer xd,
            DeviceBuffer xs,
            DeviceBuffer y,
            int rows,
            int k) {
        int rowsPerBlock = KernelConstants.LS_MMVQ_ONE_ROWS;
        s.launch(
                s.device().function(Kernel.MMVQ_Q8_0_1),
                LaunchConfig.of((rows + rowsPerBlock - 1) / rowsPerBlock, KernelConstants.LS_MMVQ_NARROW_THREADS),
                KernelArgs.of()
                        .pointer(w)
                        .pointer(wd)
                        .pointer(xq)
                        .pointer(xd)
                        .pointer(xs)
                        .pointer(y)
                        .i32(rows)
                        .i32(k)
                        .i32(rows)
                        .i32(0));
    }
}
