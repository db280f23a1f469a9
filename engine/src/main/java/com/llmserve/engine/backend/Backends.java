package com.llmserve.engine.backend;

import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.backend.cpu.CpuKernels;
import com.llmserve.engine.backend.gpu.GpuBackend;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.engine.backend.gpu.ShardGroup;
import com.llmserve.gpu.BackendStatus;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.DevicePool;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The one way from a {@link BackendChoice} to a compute backend, for the devices of one process.
 * {@code cpu} runs on a {@link CpuBackend}; {@code gpu}, and {@code auto} when the pool holds a
 * device, on a {@link GpuBackend} over one of the pool's devices, placed round robin in the order
 * backends are opened (one model per device while models are no more than devices); {@code auto}
 * on a machine without a GPU runs on the CPU. Each backend serves one model: a CPU backend's
 * worker crew serves one engine loop at a time.
 *
 * <p>The pool stays its opener's: backends open on its devices and close without it, and the
 * opener closes the pool after the backends.
 */
public final class Backends {

    private final DevicePool pool;
    private final String noGpu;
    private final int cpuThreads;
    private final boolean cpuBatchInvariant;
    private final CpuKernels cpuKernels;
    private final GpuOptions gpu;
    private final AtomicInteger next = new AtomicInteger();

    /**
     * Backends on the devices of {@code pool}, which may be empty (a machine without a GPU).
     *
     * @param cpuThreads threads of each CPU backend
     */
    public Backends(DevicePool pool, int cpuThreads, GpuOptions gpu) {
        this(pool, pool.isEmpty() ? reasons(pool) : null, cpuThreads, gpu);
    }

    private Backends(
            DevicePool pool,
            String noGpu,
            int cpuThreads,
            boolean cpuBatchInvariant,
            CpuKernels cpuKernels,
            GpuOptions gpu) {
        if (cpuThreads < 1) {
            throw new IllegalArgumentException("cpuThreads must be positive: " + cpuThreads);
        }
        this.pool = pool;
        this.noGpu = noGpu;
        this.cpuThreads = cpuThreads;
        this.cpuBatchInvariant = cpuBatchInvariant;
        this.cpuKernels = cpuKernels;
        this.gpu = gpu;
    }

    private Backends(DevicePool pool, String noGpu, int cpuThreads, GpuOptions gpu) {
        this(pool, noGpu, cpuThreads, false, CpuKernels.AUTO, gpu);
    }

    /**
     * These backends with rows' results that do not depend on their batch, or that may: CPU
     * backends as {@link CpuBackend#batchInvariant()} says, GPU backends as
     * {@link GpuOptions#batchInvariant()} says.
     */
    public Backends withBatchInvariant(boolean invariant) {
        return withBatchInvariant(invariant, invariant);
    }

    /** These backends with batch-invariant CPU backends, GPU backends, both or neither. */
    public Backends withBatchInvariant(boolean cpu, boolean gpu) {
        return new Backends(pool, noGpu, cpuThreads, cpu, cpuKernels, this.gpu.withBatchInvariant(gpu));
    }

    /**
     * These backends with CPU backends on {@code kernels} ({@code llmserve.engine.cpu-kernels}):
     * the native kernels where they run (auto), only the Java ones, or the native ones required.
     */
    public Backends withCpuKernels(CpuKernels kernels) {
        return new Backends(pool, noGpu, cpuThreads, cpuBatchInvariant, kernels, gpu);
    }

    /**
     * Backends of a process that opened no GPU runtime: everything runs on the CPU.
     *
     * @param why why there is no runtime, for the refusal of {@code gpu}
     */
    public static Backends cpuOnly(int cpuThreads, String why) {
        return new Backends(null, why, cpuThreads, GpuOptions.defaults());
    }

    /** Why {@code choice} cannot be opened here, with each GPU runtime's reason; empty when it can. */
    public Optional<String> unavailable(BackendChoice choice) {
        return choice == BackendChoice.GPU && noGpu != null
                ? Optional.of("no GPU backend available (" + noGpu + ")")
                : Optional.empty();
    }

    public boolean available(BackendChoice choice) {
        return unavailable(choice).isEmpty();
    }

    /**
     * A new backend for one model; the caller closes it.
     *
     * @throws IllegalStateException when {@code choice} is {@linkplain #unavailable unavailable}, saying why
     */
    public Backend open(BackendChoice choice) {
        Optional<String> refused = unavailable(choice);
        if (refused.isPresent()) {
            throw new IllegalStateException(
                    "backend " + choice.name().toLowerCase(Locale.ROOT) + " asked for: " + refused.get());
        }
        if (choice == BackendChoice.CPU || noGpu != null) {
            return new CpuBackend(cpuThreads, true, cpuBatchInvariant, cpuKernels);
        }
        Device device = pool.devices()
                .get(Math.floorMod(next.getAndIncrement(), pool.devices().size()));
        return GpuBackend.open(device, gpu);
    }

    /** The GPUs a model can be placed on: 0 without a GPU runtime. */
    public int gpuCount() {
        return noGpu != null ? 0 : pool.devices().size();
    }

    /**
     * A new GPU backend for one model on GPU {@code device} (its index in the pool), for a model
     * placed on chosen devices (its replicas); the caller closes it.
     *
     * @throws IllegalStateException when there is no GPU, or no GPU of that index
     */
    public Backend openOn(int device) {
        if (device < 0 || device >= gpuCount()) {
            throw new IllegalStateException("GPU " + device + " asked for: "
                    + (noGpu != null
                            ? "no GPU backend available (" + noGpu + ")"
                            : "the GPUs are 0 to " + (gpuCount() - 1)));
        }
        return GpuBackend.open(pool.devices().get(device), gpu);
    }

    /**
     * A new tensor-parallel backend for one model split over GPUs {@code devices} (pool indexes, in
     * rank order): one shard per device, each holding its part of every layer's heads and
     * feed-forward columns, summed across the shards by all-reduce (NCCL on NVIDIA, RCCL on AMD).
     * The backend returned is shard 0's; its {@link Backend#shards()} lists every shard, and
     * closing it closes them all and their communicators. One device gives a plain GPU backend.
     *
     * @throws IllegalStateException when there is no GPU, an index is not one of the GPUs or appears
     *     twice, or the collective library cannot be opened (saying why)
     */
    public Backend openTensorParallel(int[] devices) {
        if (devices.length == 0) {
            throw new IllegalArgumentException("tensor parallelism over no GPU");
        }
        for (int d : devices) {
            if (d < 0 || d >= gpuCount()) {
                throw new IllegalStateException("GPU " + d + " asked for: "
                        + (noGpu != null
                                ? "no GPU backend available (" + noGpu + ")"
                                : "the GPUs are 0 to " + (gpuCount() - 1)));
            }
        }
        if (devices.length == 1) {
            return openOn(devices[0]);
        }
        if (Arrays.stream(devices).distinct().count() < devices.length) {
            throw new IllegalStateException("tensor parallelism names a GPU twice: " + Arrays.toString(devices));
        }
        List<Device> shards =
                Arrays.stream(devices).mapToObj(pool.devices()::get).toList();
        return ShardGroup.open(shards, gpu);
    }

    private static String reasons(DevicePool pool) {
        String reasons = pool.statuses().stream().map(BackendStatus::toString).collect(Collectors.joining("; "));
        return reasons.isEmpty() ? "no GPU runtime" : reasons;
    }
}
