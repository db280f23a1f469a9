package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Unary;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.kernels.Kernel;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/** {@code x = f(x)} element-wise, by the kernel {@code ls_<f>_f32(float* x, int n)}. */
record UnaryOp(Unary f, GpuActivations x, int n) implements DeviceOp {

    private static final Map<Unary, Kernel> KERNELS = new EnumMap<>(Unary.class);

    static {
        for (Unary f : Unary.values()) {
            KERNELS.put(f, kernel(f));
        }
    }

    /** The kernel of {@code f}, found by its name: a missing one is a build error the tests catch. */
    static Kernel kernel(Unary f) {
        return Kernel.valueOf(f.name().toUpperCase(Locale.ROOT) + "_F32");
    }

    @Override
    public void launch(Launch l) {
        long total = (long) n * x.cols();
        l.kernel(
                KERNELS.get(f),
                Launch.covering(total),
                KernelArgs.of().pointer(x.buffer).i32(Math.toIntExact(total)));
    }

    @Override
    public String profileKey() {
        return f.name().toLowerCase(Locale.ROOT) + " " + x.cols() + " n=" + n;
    }
}
