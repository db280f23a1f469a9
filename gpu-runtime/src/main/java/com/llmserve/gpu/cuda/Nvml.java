package com.llmserve.gpu.cuda;

import static com.llmserve.gpu.cuda.nvml_h.*;

import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.GpuException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;

/**
 * An NVML session. Telemetry is optional: a driver without NVML (or one where init fails) still
 * serves, so failures here become an empty reading and one log line, never an exception.
 */
final class Nvml implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Nvml.class.getName());

    private final boolean available;
    private final String driverVersion;

    private Nvml(boolean available, String driverVersion) {
        this.available = available;
        this.driverVersion = driverVersion;
    }

    static Nvml open() {
        if (!LIBRARY.isLoaded()) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "NVML not loaded, no GPU telemetry: {0}",
                    LIBRARY.loadFailure().orElse(""));
            return new Nvml(false, null);
        }
        try (Arena arena = Arena.ofConfined()) {
            CudaStatus.NVML.check(nvmlInit_v2(), "nvmlInit_v2");
            MemorySegment version = arena.allocate(80);
            CudaStatus.NVML.check(nvmlSystemGetDriverVersion(version, 80), "nvmlSystemGetDriverVersion");
            return new Nvml(true, version.getString(0));
        } catch (GpuException e) {
            LOG.log(System.Logger.Level.WARNING, "NVML unavailable, no GPU telemetry: {0}", e.getMessage());
            return new Nvml(false, null);
        }
    }

    boolean available() {
        return available;
    }

    String driverVersion() {
        return driverVersion;
    }

    /** The NVML handle of the device at {@code pciBusId}, which NVML resolves without index games. */
    Optional<MemorySegment> device(String pciBusId) {
        if (!available) return Optional.empty();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            CudaStatus.NVML.check(
                    nvmlDeviceGetHandleByPciBusId_v2(arena.allocateFrom(pciBusId), out),
                    "nvmlDeviceGetHandleByPciBusId_v2");
            return Optional.of(out.get(ValueLayout.ADDRESS, 0));
        } catch (GpuException e) {
            LOG.log(System.Logger.Level.WARNING, "no NVML handle for {0}: {1}", pciBusId, e.getMessage());
            return Optional.empty();
        }
    }

    DeviceTelemetry read(MemorySegment device) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(nvmlMemory_t);
            CudaStatus.NVML.check(nvmlDeviceGetMemoryInfo(device, memory), "nvmlDeviceGetMemoryInfo");
            MemorySegment utilization = arena.allocate(nvmlUtilization_t);
            CudaStatus.NVML.check(nvmlDeviceGetUtilizationRates(device, utilization), "nvmlDeviceGetUtilizationRates");
            double celsius = temperature(arena, device);
            MemorySegment milliwatts = arena.allocate(ValueLayout.JAVA_INT);
            CudaStatus.NVML.check(nvmlDeviceGetPowerUsage(device, milliwatts), "nvmlDeviceGetPowerUsage");
            return new DeviceTelemetry(
                    memory.get(ValueLayout.JAVA_LONG, nvmlMemory_t.byteOffset(groupElement("used"))),
                    memory.get(ValueLayout.JAVA_LONG, nvmlMemory_t.byteOffset(groupElement("total"))),
                    utilization.get(ValueLayout.JAVA_INT, nvmlUtilization_t.byteOffset(groupElement("gpu"))),
                    celsius,
                    Integer.toUnsignedLong(milliwatts.get(ValueLayout.JAVA_INT, 0)) / 1000.0);
        }
    }

    /** The versioned call where the driver has it (R565+), the deprecated one before. */
    private static double temperature(Arena arena, MemorySegment device) {
        if (LIBRARY.hasSymbol("nvmlDeviceGetTemperatureV")) {
            MemorySegment t = arena.allocate(nvmlTemperature_t);
            t.set(ValueLayout.JAVA_INT, nvmlTemperature_t.byteOffset(groupElement("version")), nvmlTemperature_v1);
            t.set(ValueLayout.JAVA_INT, nvmlTemperature_t.byteOffset(groupElement("sensorType")), NVML_TEMPERATURE_GPU);
            CudaStatus.NVML.check(nvmlDeviceGetTemperatureV(device, t), "nvmlDeviceGetTemperatureV");
            return t.get(ValueLayout.JAVA_INT, nvmlTemperature_t.byteOffset(groupElement("temperature")));
        }
        MemorySegment t = arena.allocate(ValueLayout.JAVA_INT);
        CudaStatus.NVML.check(nvmlDeviceGetTemperature(device, NVML_TEMPERATURE_GPU, t), "nvmlDeviceGetTemperature");
        return Integer.toUnsignedLong(t.get(ValueLayout.JAVA_INT, 0));
    }

    private static java.lang.foreign.MemoryLayout.PathElement groupElement(String name) {
        return java.lang.foreign.MemoryLayout.PathElement.groupElement(name);
    }

    @Override
    public void close() {
        if (available) {
            int rc = nvmlShutdown();
            if (rc != NVML_SUCCESS)
                LOG.log(
                        System.Logger.Level.WARNING,
                        "nvmlShutdown: {0}",
                        CudaStatus.NVML.error(rc, "nvmlShutdown").getMessage());
        }
    }
}
