package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.kernels.Kernel;

/** @param quantize also write the Q8_0 form of {@code out} for the GEMV that follows (fused) */
record RmsNorm(GpuActivations x, GpuWeight weight, float eps, int n, GpuActivations out, boolean quantize)
        implements DeviceOp {

    @Override
    public void launch(Launch l) {
        if (quantize) {
            launchQuantizing(l, x, null, weight, out, n, eps);
            return;
        }
        int cols = x.cols();
        boolean v4 = cols % 4 == 0;
        l.kernel(
                v4 ? Kernel.RMS_NORM_V4 : Kernel.RMS_NORM_F32,
                LaunchConfig.of(n, v4 ? Launch.rowThreads(cols) : Launch.ROW_THREADS),
                KernelArgs.of()
                        .pointer(x.buffer)
                        .pointer(weight.vector)
                        .pointer(out.buffer)
                        .i32(cols)
                        .f32(eps));
    }

    /** The norm (after {@code x += residual} when one is given) writing its Q8_0 form too; rows are whole Q8_0 blocks. */
    static void launchQuantizing(
            Launch l,
            GpuActivations x,
            GpuActivations residual,
            GpuWeight weight,
            GpuActivations out,
            int n,
            float eps) {
        KernelArgs args = KernelArgs.of().pointer(x.buffer);
        if (residual != null) {
            args.pointer(residual.buffer);
        } else {
            args.nullPointer();
        }
        args.pointer(weight.vector).pointer(out.buffer);
        l.kernel(
                Kernel.RMS_NORM_Q8_V4,
                LaunchConfig.of(n, Launch.rowThreads(x.cols())),
                l.q8(args, 0, x.cols()).i32(x.cols()).f32(eps));
    }

    RmsNorm quantizing() {
        return new RmsNorm(x, weight, eps, n, out, true);
    }

    @Override
    public String profileKey() {
        return "rmsNorm " + x.cols() + (quantize ? "+q8" : "") + " n=" + n;
    }
}
