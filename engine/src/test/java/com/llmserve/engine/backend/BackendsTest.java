package com.llmserve.engine.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RuntimeChoice;
import org.junit.jupiter.api.Test;

/** The {@code backend} setting: {@code cpu}, {@code gpu} or {@code auto}, on hosts with and without a GPU. */
class BackendsTest {

    private static boolean gpuPresent() {
        try (DevicePool pool = DevicePool.open(RuntimeChoice.AUTO)) {
            return !pool.isEmpty();
        }
    }

    @Test
    void settingsParseInAnyCaseAndUnknownOnesNameTheChoices() {
        assertThat(BackendChoice.parse(" Auto ")).isEqualTo(BackendChoice.AUTO);
        assertThat(BackendChoice.parse("GPU")).isEqualTo(BackendChoice.GPU);
        assertThatThrownBy(() -> BackendChoice.parse("tpu")).hasMessageContaining("auto, cpu or gpu");
    }

    @Test
    void cpuIsAlwaysTheCpuBackend() {
        try (Backend be = Backends.open(BackendChoice.CPU, GpuOptions.defaults(), 1)) {
            assertThat(be).isInstanceOf(CpuBackend.class);
        }
    }

    @Test
    void autoRunsOnTheGpuWhenOneAnswersElseOnTheCpu() {
        boolean gpu = gpuPresent();
        try (Backend be = Backends.open(BackendChoice.AUTO, GpuOptions.defaults(), 1)) {
            assertThat(be.name()).matches(gpu ? "(cuda|hip):\\d+" : "cpu");
        }
    }

    @Test
    void gpuWithoutADeviceFailsWithEachRuntimesReason() {
        if (gpuPresent()) {
            try (Backend be = Backends.open(BackendChoice.GPU, GpuOptions.defaults(), 1)) {
                assertThat(be.name()).matches("(cuda|hip):\\d+");
            }
            return;
        }
        assertThatThrownBy(() -> Backends.open(BackendChoice.GPU, GpuOptions.defaults(), 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no GPU answered")
                .hasMessageContaining("hip")
                .hasMessageContaining("cuda");
    }
}
