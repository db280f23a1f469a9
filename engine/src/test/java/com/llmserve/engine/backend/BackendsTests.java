package com.llmserve.engine.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RequiresGpu;
import com.llmserve.gpu.RuntimeChoice;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code backend} setting ({@code cpu}, {@code gpu} or {@code auto}) on a process's devices. */
class BackendsTests {

    @Test
    void settingsParseInAnyCaseAndUnknownOnesNameTheChoices() {
        assertThat(BackendChoice.parse(" Auto ")).isEqualTo(BackendChoice.AUTO);
        assertThat(BackendChoice.parse("GPU")).isEqualTo(BackendChoice.GPU);
        assertThatThrownBy(() -> BackendChoice.parse("tpu")).hasMessageContaining("auto, cpu or gpu");
    }

    @Test
    void withoutADeviceAutoRunsOnTheCpuAndGpuIsRefusedWithEachRuntimesReason() {
        try (DevicePool none = DevicePool.open(RuntimeChoice.NONE)) {
            Backends backends = new Backends(none, 1, GpuOptions.defaults());

            assertThat(backends.available(BackendChoice.AUTO)).isTrue();
            assertThat(backends.unavailable(BackendChoice.GPU))
                    .hasValueSatisfying(why ->
                            assertThat(why).contains("no GPU backend available").contains("disabled by configuration"));
            assertThatThrownBy(() -> backends.open(BackendChoice.GPU))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("backend gpu")
                    .hasMessageContaining("disabled by configuration");
            try (Backend auto = backends.open(BackendChoice.AUTO)) {
                assertThat(auto).isInstanceOf(CpuBackend.class);
                assertThat(auto.accelerated()).as("the CPU is never on a GPU").isFalse();
                assertThat(auto.description()).matches("cpu \\(1 threads, (java|native \\w+) kernels\\)");
            }
        }
    }

    @Test
    void aProcessWithoutAGpuRuntimeRunsEverythingOnTheCpuAndSaysWhyGpuIsRefused() {
        Backends backends = Backends.cpuOnly(2, "GPU runtime disabled");

        assertThat(backends.unavailable(BackendChoice.GPU)).hasValue("no GPU backend available (GPU runtime disabled)");
        try (Backend cpu = backends.open(BackendChoice.CPU);
                Backend auto = backends.open(BackendChoice.AUTO)) {
            assertThat(List.of(cpu, auto)).allSatisfy(b -> assertThat(b).isInstanceOf(CpuBackend.class));
            assertThat(auto.description()).matches("cpu \\(2 threads, (java|native \\w+) kernels\\)");
        }
    }

    @Test
    void cpuIsTheCpuBackendWhateverThePoolHolds() {
        try (DevicePool pool = DevicePool.open(RuntimeChoice.AUTO);
                Backend be = new Backends(pool, 1, GpuOptions.defaults()).open(BackendChoice.CPU)) {
            assertThat(be).isInstanceOf(CpuBackend.class);
        }
    }

    @Test
    @RequiresGpu
    void gpuBackendsArePlacedRoundRobinOnThePoolsDevicesAndKnownAsGpuBackends(DevicePool pool) {
        Backends backends = new Backends(pool, 1, GpuOptions.defaults());
        List<Backend> opened = new ArrayList<>();
        try {
            for (int i = 0; i < 2 * pool.devices().size(); i++) {
                opened.add(backends.open(i % 2 == 0 ? BackendChoice.GPU : BackendChoice.AUTO));
            }
            int devices = pool.devices().size();
            assertThat(opened.subList(0, devices)).extracting(Backend::name).doesNotHaveDuplicates();
            for (int i = 0; i < opened.size(); i++) {
                Backend b = opened.get(i);
                assertThat(b.accelerated()).isTrue();
                assertThat(b.name()).isEqualTo(opened.get(i % devices).name()).matches("(cuda|hip):\\d+");
                assertThat(b.description()).startsWith(b.name() + " (");
            }
        } finally {
            opened.reversed().forEach(Backend::close);
        }
    }
}
