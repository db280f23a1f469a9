package com.llmserve.engine.model;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.Backends;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RequiresGpu;

/** {@link GoldenParityTests}'s llama.cpp goldens on the GPU backend. */
@RequiresGpu
class GpuGoldenParityTests extends GoldenParityTests {

    private final DevicePool pool;

    GpuGoldenParityTests(DevicePool pool) {
        this.pool = pool;
    }

    /**
     * No half copies of the weights, as when these goldens were first matched; with
     * {@code -Dparity.half-weights=true} the defaults' share of them, so that prompts of
     * Matmul.HALF_COPY_MIN_ROWS rows or more take the BLAS over half weights (a measurement of the
     * service's default path, which rounds weights and activations to half).
     */
    @Override
    Backend openBackend() {
        GpuOptions options = Boolean.getBoolean("parity.half-weights")
                ? GpuOptions.defaults()
                : GpuOptions.defaults().withHalfWeights(false);
        return new Backends(pool, 1, options).open(BackendChoice.GPU);
    }
}
