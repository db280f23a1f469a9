package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.KernelArgs;
import com.llmserve.kernels.Kernel;

/** {@code out[t] = table[ids[t]]}; the ids sit at {@code ids} in the step's int region. */
record Embed(GpuWeight table, int ids, int n, GpuActivations out) implements DeviceOp {

    @Override
    public void launch(Launch l) {
        GpuWeight.Band band = table.bands.getFirst();
        int k = table.cols();
        if (k % 8 != 0) { // F32 rows of any length (WeightFormat.forType): element by element
            KernelArgs args = l.ints(KernelArgs.of().pointer(band.data()), ids);
            l.kernel(
                    Kernel.EMBED_F32_ANY,
                    Launch.covering((long) n * k),
                    args.pointer(out.buffer).i32(k).i32(n));
            return;
        }
        KernelArgs args = KernelArgs.of().pointer(band.data()).pointer(band.data(), band.scalesOffset());
        l.ints(args, ids).pointer(out.buffer).i32(k).i32(n);
        l.kernel(band.format().embedKernel(), Launch.covering((long) n * k / 8), args);
    }

    @Override
    public String profileKey() {
        return "embed " + table.bands.getFirst().format() + " n=" + n;
    }
}
