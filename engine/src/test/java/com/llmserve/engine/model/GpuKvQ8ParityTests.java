package com.llmserve.engine.model;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.Backends;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RequiresGpu;

/** {@link KvQ8ParityTests} on the GPU backend: its Q8_0 cache against its F16 cache and llama.cpp's goldens. */
@RequiresGpu
class GpuKvQ8ParityTests extends KvQ8ParityTests {

    private final DevicePool pool;

    GpuKvQ8ParityTests(DevicePool pool) {
        this.pool = pool;
    }

    @Override
    Backend openBackend() {
        return new Backends(pool, 1, GpuOptions.defaults().withHalfWeights(false)).open(BackendChoice.GPU);
    }
}
