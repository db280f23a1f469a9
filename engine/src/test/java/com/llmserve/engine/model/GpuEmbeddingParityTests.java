package com.llmserve.engine.model;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.Backends;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RequiresGpu;

/** {@link EmbeddingParityTests}'s llama.cpp embedding goldens on the GPU backend. */
@RequiresGpu
class GpuEmbeddingParityTests extends EmbeddingParityTests {

    private final DevicePool pool;

    GpuEmbeddingParityTests(DevicePool pool) {
        this.pool = pool;
    }

    /** No half copies of the weights, as when these goldens were first matched. */
    @Override
    Backend openBackend() {
        return new Backends(pool, 1, GpuOptions.defaults().withHalfWeights(false)).open(BackendChoice.GPU);
    }
}
