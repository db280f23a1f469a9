package com.llmserve.engine.model;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.Backends;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RuntimeChoice;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;

/** {@link EmbeddingParityTests}'s llama.cpp embedding goldens on the GPU backend; skipped where no GPU answers. */
@Tag("gpu")
class GpuEmbeddingParityTests extends EmbeddingParityTests {

    private DevicePool pool;

    @Override
    Backend openBackend() {
        pool = DevicePool.open(RuntimeChoice.AUTO);
        assumeFalse(pool.isEmpty(), () -> "no GPU: " + pool.statuses());
        // no half copies of the weights, as when these goldens were first matched
        return new Backends(pool, 1, GpuOptions.defaults().withHalfWeights(false)).open(BackendChoice.GPU);
    }

    /** The pool outlives the backend on its device. */
    @Override
    @AfterAll
    void stopBackend() {
        try {
            super.stopBackend();
        } finally {
            if (pool != null) {
                pool.close();
            }
        }
    }
}
