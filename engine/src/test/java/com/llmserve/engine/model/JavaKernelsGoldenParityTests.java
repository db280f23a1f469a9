package com.llmserve.engine.model;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.backend.cpu.CpuKernels;

/**
 * {@link GoldenParityTests}'s llama.cpp goldens on the CPU backend's Java (Vector API) kernels, the
 * portable path, where {@link GoldenParityTests} takes the native ones wherever they run.
 */
class JavaKernelsGoldenParityTests extends GoldenParityTests {

    @Override
    Backend openBackend() {
        return new CpuBackend(
                2, Boolean.parseBoolean(System.getProperty("parity.pack", "true")), false, CpuKernels.JAVA);
    }
}
