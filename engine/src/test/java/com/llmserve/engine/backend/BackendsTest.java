package com.llmserve.engine.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.BackendChoice;
import com.llmserve.gpu.DevicePool;
import org.junit.jupiter.api.Test;

/** The {@code backend} setting: {@code cpu}, {@code gpu} or {@code auto}, on hosts with and without a GPU. */
class BackendsTest {

    private static boolean gpuPresent() {
        try (DevicePool pool = DevicePool.open(BackendChoice.AUTO)) {
            return !pool.isEmpty();
        }
    }

    @Test
    void settingsParseInAnyCaseAndUnknownOnesNameTheChoices() {
        assertThat(Backends.Choice.parse(" Auto ")).isEqualTo(Backends.Choice.AUTO);
        assertThat(Backends.Choice.parse("GPU")).isEqualTo(Backends.Choice.GPU);
        assertThatThrownBy(() -> Backends.Choice.parse("tpu")).hasMessageContaining("auto, cpu or gpu");
    }

    @Test
    void cpuIsAlwaysTheCpuBackend() {
        try (Backend be = Backends.open(Backends.Choice.CPU, GpuOptions.defaults(), 1)) {
            assertThat(be).isInstanceOf(CpuBackend.class);
        }
    }

    @Test
    void autoRunsOnTheGpuWhenOneAnswersElseOnTheCpu() {
        boolean gpu = gpuPresent();
        try (Backend be = Backends.open(Backends.Choice.AUTO, GpuOptions.defaults(), 1)) {
            assertThat(be.name()).matches(gpu ? "(cuda|hip):\\d+" : "cpu");
        }
    }

    @Test
    void gpuWithoutADeviceFailsWithEachRuntimesReason() {
        if (gpuPresent()) {
            try (Backend be = Backends.open(Backends.Choice.GPU, GpuOptions.defaults(), 1)) {
                assertThat(be.name()).matches("(cuda|hip):\\d+");
            }
            return;
        }
        assertThatThrownBy(() -> Backends.open(Backends.Choice.GPU, GpuOptions.defaults(), 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no GPU answered")
                .hasMessageContaining("hip")
                .hasMessageContaining("cuda");
    }
}
