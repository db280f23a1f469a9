package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_MAX_BLOCK;
import static com.llmserve.kernels.KernelConstants.LS_QK;

import com.llmserve.engine.backend.gpu.Scratch.Slot;
import com.llmserve.engine.backend.gpu.StepMeta.Region;
import com.llmserve.gpu.Blas;
import com.llmserve.gpu.DeviceBuffer;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.gpu.Stream;
import com.llmserve.kernels.Kernel;

/**
 * Where a step's operations launch: one stream, the workspace they were sized against and the
 * step's metadata. Nothing here allocates, so the same calls can be captured into a graph.
 */
final class Launch {

    /** Threads per block of the element-wise kernels. */
    static final int THREADS = 256;
    /** Threads per block of the row kernels (norms), a multiple of every wave size. */
    static final int ROW_THREADS = 256;

    private final Stream stream;
    private final Workspace workspace;

    Launch(Stream stream, Workspace workspace) {
        this.stream = stream;
        this.workspace = workspace;
    }

    /** The stream everything launches on, for a library call that takes it (a collective). */
    Stream stream() {
        return stream;
    }

    void kernel(Kernel kernel, LaunchConfig config, KernelArgs args) {
        LaunchConfig c = workspace.launchesDependent(kernel) ? config.asDependent() : config;
        stream.launch(workspace.device().function(kernel), c, args);
    }

    Blas blas() {
        return stream.blas();
    }

    DeviceBuffer scratch(Slot slot) {
        return workspace.scratch(slot);
    }

    GpuOptions options() {
        return workspace.options();
    }

    /** The device's multiprocessors (NVIDIA) or compute units (AMD), which grids are sized to fill. */
    int multiprocessors() {
        return workspace.device().info().multiprocessors();
    }

    /** Appends a pointer to a region of the step's metadata. */
    KernelArgs meta(KernelArgs args, Region region) {
        StepMeta meta = workspace.meta();
        return args.pointer(meta.buffer(), meta.offset(region));
    }

    /** Appends a pointer to an operation's ints, {@code offset} ints into the metadata's int region. */
    KernelArgs ints(KernelArgs args, int offset) {
        StepMeta meta = workspace.meta();
        return args.pointer(meta.buffer(), meta.offset(Region.INTS) + 4L * offset);
    }

    /** A 1-D grid covering {@code items} with {@link #THREADS} per block. */
    static LaunchConfig covering(long items) {
        return LaunchConfig.covering(items, THREADS);
    }

    /** Threads for a vectorized row kernel: one float4 each, a multiple of 64 (every wave size), at most a block. */
    static int rowThreads(int cols) {
        int vecs = (cols / 4 + 63) / 64 * 64;
        return Math.max(64, Math.min(LS_MAX_BLOCK, vecs));
    }

    /** Appends the three Q8_0 activation scratch pointers (values, scales, sums), {@code row} rows of {@code k} in. */
    KernelArgs q8(KernelArgs args, long row, int k) {
        return args.pointer(scratch(Slot.XQ), row * k)
                .pointer(scratch(Slot.XD), row * (k / LS_QK) * Float.BYTES)
                .pointer(scratch(Slot.XS), row * (k / LS_QK) * Integer.BYTES);
    }
}
