package com.llmserve.engine.model;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.Backends;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RequiresGpu;

/**
 * {@link KvGroupsParityTests} on the GPU backend: the windowed layers' block tables and slots are
 * the step metadata's second group, read by the same kernels (decode steps replay captured graphs).
 */
@RequiresGpu
class GpuKvGroupsParityTests extends KvGroupsParityTests {

    private final DevicePool pool;

    GpuKvGroupsParityTests(DevicePool pool) {
        this.pool = pool;
    }

    @Override
    Backend openBackend() {
        return new Backends(pool, 1, GpuOptions.defaults()).open(BackendChoice.GPU);
    }
}
