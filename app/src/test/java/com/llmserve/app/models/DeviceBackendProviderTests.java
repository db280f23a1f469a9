package com.llmserve.app.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.DevicePool;
import org.junit.jupiter.api.Test;

/** The backends of a process whose GPU runtime found no device (every CI machine). */
class DeviceBackendProviderTests {

    @Test
    void withoutADeviceAutoRunsOnTheCpuAndGpuIsRefusedWithEachRuntimesReason() {
        try (DevicePool pool = DevicePool.open(com.llmserve.gpu.RuntimeChoice.NONE)) {
            DeviceBackendProvider provider = new DeviceBackendProvider(pool, 1, GpuOptions.defaults());

            assertThat(provider.available(BackendChoice.AUTO)).isTrue();
            assertThat(provider.available(BackendChoice.GPU)).isFalse();
            assertThatThrownBy(() -> provider.create(BackendChoice.GPU, "m"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'m'")
                    .hasMessageContaining("no GPU backend available")
                    .hasMessageContaining("disabled by configuration");
            try (Backend auto = provider.create(BackendChoice.AUTO, "m")) {
                assertThat(auto.name()).isEqualTo("cpu");
                assertThat(provider.accelerated(auto))
                        .as("the CPU is never guarded")
                        .isFalse();
                assertThat(provider.describe(auto)).isEqualTo("cpu (1 threads)");
            }
        }
    }
}
