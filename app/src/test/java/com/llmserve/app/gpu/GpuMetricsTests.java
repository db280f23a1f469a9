package com.llmserve.app.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.llmserve.gpu.GpuCallException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class GpuMetricsTests {

    private final FakeDevice device = new FakeDevice("hip:0");
    private final GpuTelemetry telemetry =
            new GpuTelemetry(device.asDevices(), Duration.ofSeconds(5), DeviceFaults.none(), Clock.systemUTC());
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    GpuMetricsTests() {
        new GpuMetrics(device.asDevices(), telemetry).bindTo(registry);
    }

    private double gauge(String name) {
        return registry.get(name).tag("device", "hip:0").gauge().value();
    }

    @Test
    void gaugesReadTheLatestSampleInBaseUnits() {
        telemetry.sampleAll();

        assertThat(gauge("llm.gpu.memory.used")).isEqualTo(10L << 30);
        assertThat(gauge("llm.gpu.memory.total")).isEqualTo(16L << 30);
        assertThat(gauge("llm.gpu.utilization")).isCloseTo(0.75, within(1e-9));
        assertThat(gauge("llm.gpu.temperature")).isEqualTo(61.5);
        assertThat(gauge("llm.gpu.power")).isEqualTo(180.25);
        assertThat(gauge("llm.gpu.allocator.memory.used")).isEqualTo(1L << 30);
        assertThat(gauge("llm.gpu.allocator.memory.cached")).isEqualTo(64L << 20);
        assertThat(gauge("llm.gpu.streams.leased")).isEqualTo(2);
        assertThat(gauge("llm.gpu.streams.capacity")).isEqualTo(4);
        assertThat(registry.get("llm.gpu.allocator.driver.allocations")
                        .functionCounter()
                        .count())
                .isEqualTo(5);
        assertThat(registry.get("llm.gpu.allocator.cache.hits")
                        .functionCounter()
                        .count())
                .isEqualTo(50);
        assertThat(registry.get("llm.gpu.memory.used").gauge().getId().getBaseUnit())
                .isEqualTo("bytes");
        assertThat(registry.getMeters())
                .allSatisfy(m -> assertThat(m.getId().getDescription()).isNotBlank());
    }

    @Test
    void aScrapeNeverCallsTheDriverItOnlyReadsTheLastSample() {
        telemetry.sampleAll();
        device.memory = new com.llmserve.gpu.MemoryInfo(0, 16L << 30);

        assertThat(gauge("llm.gpu.memory.used")).as("still the sampled value").isEqualTo(10L << 30);
        telemetry.sampleAll();
        assertThat(gauge("llm.gpu.memory.used")).isEqualTo(16L << 30);
    }

    @Test
    void valuesNotReadYetOrNotOfferedAreNaNAndTheProcessesOwnCountersOutliveADriverError() {
        assertThat(gauge("llm.gpu.memory.used")).isNaN();
        device.telemetry = null; // no NVML / rocm-smi
        telemetry.sampleAll();
        assertThat(gauge("llm.gpu.utilization")).isNaN();
        assertThat(gauge("llm.gpu.memory.used")).isEqualTo(10L << 30);

        device.driverError = new GpuCallException("hip", "hipMemGetInfo", 999, "hipErrorUnknown", "unknown", false);
        telemetry.sampleAll();
        assertThat(gauge("llm.gpu.memory.used")).isNaN();
        assertThat(gauge("llm.gpu.allocator.memory.used")).isEqualTo(1L << 30);
        assertThat(registry.get("llm.gpu.allocator.driver.allocations")
                        .functionCounter()
                        .count())
                .isEqualTo(5);
    }
}
