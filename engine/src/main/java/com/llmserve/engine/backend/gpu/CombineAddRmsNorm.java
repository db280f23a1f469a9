package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.kernels.Kernel;

/**
 * A mixture's {@link CombineExperts} over rows {@code [0, n)} followed by the {@link AddRmsNorm}
 * that adds its output to the residual stream: one launch, which still writes the combine's output.
 * Rows are a multiple of 4 long (the vectorized norm kernel).
 */
record CombineAddRmsNorm(CombineExperts combine, AddRmsNorm norm) implements DeviceOp {

    /** Whether {@code norm} adds exactly {@code combine}'s output, all its rows, so the two can run as one. */
    static boolean fits(CombineExperts combine, AddRmsNorm norm) {
        return combine.out() == norm.residual()
                && combine.first() == 0
                && combine.tokens() == norm.n()
                && norm.x().cols() % 4 == 0;
    }

    @Override
    public int n() {
        return norm.n();
    }

    @Override
    public void launch(Launch l) {
        GpuActivations x = norm.x();
        KernelArgs args = KernelArgs.of()
                .pointer(x.buffer)
                .pointer(combine.y().buffer)
                .pointer(combine.routing().buffer)
                .i32(combine.routing().cols() / 2)
                .pointer(combine.out().buffer)
                .pointer(norm.weight().vector)
                .pointer(norm.out().buffer);
        if (norm.quantize()) {
            l.q8(args, 0, x.cols());
        } else {
            args.nullPointer().nullPointer().nullPointer();
        }
        l.kernel(
                Kernel.COMBINE_ADD_RMS_NORM_V4,
                LaunchConfig.of(norm.n(), Launch.rowThreads(x.cols())),
                args.i32(x.cols()).f32(norm.eps()));
    }

    CombineAddRmsNorm quantizing() {
        return new CombineAddRmsNorm(combine, norm.quantizing());
    }

    @Override
    public String profileKey() {
        return "combineExperts+" + norm.profileKey();
    }
}
