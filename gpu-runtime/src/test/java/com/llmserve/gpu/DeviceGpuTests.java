package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ArgumentsSource;

@RequiresGpu
class DeviceGpuTests {

    @Test
    void discoveryReportsTheChosenBackend(DevicePool devices) {
        devices.statuses().forEach(s -> GpuReport.line("backend %s", s));
        assertThat(devices.statuses()).anyMatch(BackendStatus::available);
        // the health names the driver's version beside the runtime's (cuDriverGetVersion, hipDriverGetVersion)
        assertThat(devices.statuses()).filteredOn(BackendStatus::available).allSatisfy(s -> assertThat(s.detail())
                .containsAnyOf("CUDA driver API ", ", HIP driver "));
        assertThat(devices.vendor()).isPresent();
    }

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void propertiesDescribeARealDevice(Device device, DevicePool devices) {
        DeviceInfo info = device.info();
        MemoryInfo memory = device.memoryInfo();
        GpuReport.line(
                "device %d: %s, arch %s, %.1f GiB, wave %d, %d SMs/CUs, max block %d, shared %d B, pci %s; free %.1f GiB",
                info.ordinal(),
                info.name(),
                info.arch(),
                info.totalMemory() / 1073741824.0,
                info.waveSize(),
                info.multiprocessors(),
                info.maxThreadsPerBlock(),
                info.sharedMemoryPerBlock(),
                info.pciBusId(),
                memory.free() / 1073741824.0);
        assertThat(info.name()).isNotBlank();
        assertThat(info.vendor()).isEqualTo(devices.vendor().orElseThrow());
        assertThat(info.totalMemory()).isGreaterThan(1L << 30);
        assertThat(info.waveSize()).isIn(32, 64);
        if (info.vendor() == Vendor.NVIDIA) assertThat(info.waveSize()).isEqualTo(32);
        assertThat(info.multiprocessors()).isPositive();
        assertThat(info.maxThreadsPerBlock()).isGreaterThanOrEqualTo(TestKernels.BLOCK);
        assertThat(info.pciBusId()).matches("(?i)[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-9a-f]");
        assertThat((double) memory.total())
                .isCloseTo(info.totalMemory(), org.assertj.core.data.Percentage.withPercentage(1));
        assertThat(memory.free()).isPositive().isLessThanOrEqualTo(memory.total());
    }

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void telemetryReadsPlausibleValues(Device device) {
        DeviceTelemetry t = device.telemetry().orElseThrow(() -> new AssertionError("no NVML / rocm-smi reading"));
        GpuReport.line(
                "telemetry %s: memory used %.2f of %.1f GiB, utilisation %d%%, %.0f C, %.1f W",
                device.info().name(),
                t.memoryUsed() / 1073741824.0,
                t.memoryTotal() / 1073741824.0,
                t.utilizationPercent(),
                t.temperatureCelsius(),
                t.powerWatts());
        assertThat(t.memoryTotal()).isGreaterThanOrEqualTo(device.info().totalMemory() - (1L << 30));
        assertThat(t.memoryUsed()).isBetween(0L, t.memoryTotal());
        assertThat(t.utilizationPercent()).isBetween(0, 100);
        assertThat(t.temperatureCelsius()).isBetween(5.0, 110.0);
        assertThat(t.powerWatts()).isBetween(1.0, 2000.0);
    }

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void aVendorErrorBecomesATypedExceptionAndTheDeviceStaysUsable(Device device) throws Exception {
        int tooBig = device.info().maxThreadsPerBlock() * 2;
        try (StreamLease lease = device.streams().lease();
                DeviceBuffer x = lease.stream().allocate(1024)) {
            Stream s = lease.stream();
            var fn = device.function(com.llmserve.kernels.Kernel.VECTOR_ADD_F32);
            GpuCallException e = org.assertj.core.api.Assertions.catchThrowableOfType(
                    GpuCallException.class,
                    () -> s.launch(
                            fn,
                            LaunchConfig.of(1, tooBig),
                            KernelArgs.of().pointer(x).pointer(x).pointer(x).i32(256)));
            GpuReport.line("launch with %d threads per block: %s", tooBig, e.getMessage());
            assertThat(e.call()).isIn("cuLaunchKernel", "hipModuleLaunchKernel");
            assertThat(e.codeName()).isNotBlank().doesNotStartWith("status ");
            assertThat(e.vendorMessage()).isNotBlank();
            s.fill(x, (byte) 0);
            s.synchronize();
        }
    }
}
