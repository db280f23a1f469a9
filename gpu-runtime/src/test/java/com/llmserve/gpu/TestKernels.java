package com.llmserve.gpu;

import com.llmserve.kernels.Kernel;

/** Launch shapes of the proof kernels, as the engine's GPU backend will compute them. */
final class TestKernels {

    private TestKernels() {}

    static final int BLOCK = 256;

    static void vectorAdd(Stream s, DeviceBuffer a, DeviceBuffer b, DeviceBuffer out, int n) {
        s.launch(
                s.device().function(Kernel.VECTOR_ADD_F32),
                LaunchConfig.covering(n, BLOCK),
                KernelArgs.of().pointer(a).pointer(b).pointer(out).i32(n));
    }

    static void scale(Stream s, DeviceBuffer x, float factor, int n) {
        s.launch(
                s.device().function(Kernel.SCALE_F32),
                LaunchConfig.covering(n, BLOCK),
                KernelArgs.of().pointer(x).f32(factor).i32(n));
    }

    /** One block per row; 256 threads is a whole number of waves at 32 and at 64. */
    static void rmsNorm(Stream s, DeviceBuffer x, DeviceBuffer weight, DeviceBuffer y, int rows, int cols, float eps) {
        s.launch(
                s.device().function(Kernel.RMS_NORM_F32),
                LaunchConfig.of(rows, BLOCK),
                KernelArgs.of().pointer(x).pointer(weight).pointer(y).i32(cols).f32(eps));
    }

    /** One wave per row: rows per block depends on the device's wave size. */
    static void gemvQ8_0(Stream s, DeviceBuffer w, DeviceBuffer x, DeviceBuffer y, int rows, int cols) {
        int rowsPerBlock = BLOCK / s.device().info().waveSize();
        s.launch(
                s.device().function(Kernel.GEMV_Q8_0_F32),
                LaunchConfig.of((rows + rowsPerBlock - 1) / rowsPerBlock, BLOCK),
                KernelArgs.of().pointer(w).pointer(x).pointer(y).i32(rows).i32(cols));
    }
}
