package com.llmserve.app.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.Backends;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RuntimeChoice;
import org.junit.jupiter.api.Test;

/** The service's backends on a machine without a GPU (every CI machine). */
class DefaultBackendProviderTests {

    @Test
    void withoutADeviceAutoRunsUnguardedOnTheCpuAndGpuIsRefusedNamingTheModelAndEachRuntimesReason() {
        try (DevicePool pool = DevicePool.open(RuntimeChoice.NONE)) {
            DefaultBackendProvider provider = new DefaultBackendProvider(new Backends(pool, 1, GpuOptions.defaults()));

            assertThat(provider.available(BackendChoice.AUTO)).isTrue();
            assertThat(provider.available(BackendChoice.GPU)).isFalse();
            assertThatThrownBy(() -> provider.create(BackendChoice.GPU, "m"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'m'")
                    .hasMessageContaining("no GPU backend available")
                    .hasMessageContaining("disabled by configuration");
            try (Backend auto = provider.create(BackendChoice.AUTO, "m")) {
                assertThat(auto.name()).isEqualTo("cpu");
                assertThat(auto.accelerated()).as("the CPU is never guarded").isFalse();
                assertThat(auto.description()).matches("cpu \\(1 threads, (java|native \\w+) kernels\\)");
            }
        }
    }

    @Test
    void withoutAGpuRuntimeGpuIsRefusedSayingWhy() {
        DefaultBackendProvider provider =
                new DefaultBackendProvider(Backends.cpuOnly(1, "GPU runtime not opened: no code objects"));

        assertThatThrownBy(() -> provider.check(BackendChoice.GPU, "m"))
                .hasMessage("model 'm' asks for backend gpu: no GPU backend available"
                        + " (GPU runtime not opened: no code objects)");
    }

    @Test
    void aReplicaSplitOverGpusWithoutThemIsRefusedNamingTheModel() {
        DefaultBackendProvider provider =
                new DefaultBackendProvider(Backends.cpuOnly(1, "GPU runtime not opened: no code objects"));

        assertThatThrownBy(() -> provider.createOn(java.util.List.of(0, 1), "big"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("model 'big': GPU 0 asked for: no GPU backend available"
                        + " (GPU runtime not opened: no code objects)");
    }
}
