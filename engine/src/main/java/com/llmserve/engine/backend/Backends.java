package com.llmserve.engine.backend;

import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.backend.gpu.GpuBackends;
import com.llmserve.engine.backend.gpu.GpuOptions;
import java.util.Optional;

/**
 * Chooses the compute backend a model runs on, from the service's {@code backend} setting:
 * {@code cpu}, {@code gpu} (the first GPU, or an error naming why none answered) or {@code auto}
 * (the first GPU when one answers, else the CPU, logging why).
 */
public final class Backends {

    private static final System.Logger LOG = System.getLogger(Backends.class.getName());

    private Backends() {}

    /** {@link #open(BackendChoice, GpuOptions, int)} with the default GPU options and every processor for the CPU. */
    public static Backend open(BackendChoice choice) {
        return open(choice, GpuOptions.defaults(), Runtime.getRuntime().availableProcessors());
    }

    /**
     * Opens the chosen backend. A GPU backend opened here owns its device pool and closes it.
     *
     * @throws IllegalStateException for {@code GPU} when no device answers, with each runtime's reason
     */
    public static Backend open(BackendChoice choice, GpuOptions gpu, int cpuThreads) {
        if (choice == BackendChoice.CPU) {
            return new CpuBackend(cpuThreads);
        }
        GpuBackends.Opened opened = GpuBackends.openFirst(gpu);
        Optional<Backend> backend = opened.backend();
        if (backend.isPresent()) {
            LOG.log(System.Logger.Level.INFO, "compute backend: {0}", backend.get());
            return backend.get();
        }
        if (choice == BackendChoice.GPU) {
            throw new IllegalStateException("backend 'gpu' was asked for, but no GPU answered: " + opened.reason());
        }
        LOG.log(System.Logger.Level.INFO, "compute backend: cpu ({0})", opened.reason());
        return new CpuBackend(cpuThreads);
    }
}
