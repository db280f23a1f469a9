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

    /** No half copies of the weights, as when these goldens were first matched. */
    @Override
    Backend openBackend() {
        return new Backends(pool, 1, GpuOptions.defaults().withHalfWeights(false)).open(BackendChoice.GPU);
    }
}
