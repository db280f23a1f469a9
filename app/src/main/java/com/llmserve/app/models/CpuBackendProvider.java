package com.llmserve.app.models;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.cpu.CpuBackend;

/**
 * The backends of a process without the GPU runtime (an application context without its device
 * pool): {@code auto} and {@code cpu} run on the CPU; {@code gpu} is refused. Each model gets its
 * own CPU backend because a backend's worker crew serves one engine loop at a time.
 */
final class CpuBackendProvider implements BackendProvider {

    private final int threads;

    CpuBackendProvider(int threads) {
        this.threads = threads;
    }

    @Override
    public boolean available(BackendChoice choice) {
        return choice != BackendChoice.GPU;
    }

    @Override
    public Backend create(BackendChoice choice, String modelId) {
        check(choice, modelId);
        return new CpuBackend(threads);
    }

    @Override
    public String describe(Backend backend) {
        return backend.name() + " (" + threads + " threads)";
    }
}
