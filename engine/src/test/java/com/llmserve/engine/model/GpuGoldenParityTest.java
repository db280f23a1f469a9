package com.llmserve.engine.model;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.Backends;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RuntimeChoice;
import org.junit.jupiter.api.Tag;

/** {@link GoldenParityTest}'s llama.cpp goldens on the GPU backend; skipped where no GPU answers. */
@Tag("gpu")
class GpuGoldenParityTest extends GoldenParityTest {

    @Override
    Backend openBackend() {
        try (DevicePool probe = DevicePool.open(RuntimeChoice.AUTO)) {
            assumeFalse(probe.isEmpty(), () -> "no GPU: " + probe.statuses());
        }
        return Backends.open(BackendChoice.GPU, GpuOptions.defaults(), 1);
    }
}
