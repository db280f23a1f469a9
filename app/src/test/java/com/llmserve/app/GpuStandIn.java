package com.llmserve.app;

import com.llmserve.app.gpu.GpuDevice;
import com.llmserve.app.gpu.GpuDevices;
import com.llmserve.app.models.BackendProvider;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.gpu.AllocatorStats;
import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.MemoryInfo;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A GPU for machines without one: models asking for {@code gpu} run on a {@link FaultInjectingBackend}
 * around a CPU backend, named {@value #DEVICE}, and the device itself is a fixture whose readings
 * the test chooses. Until the GPU backend lands this is how the GPU path (breaker, CPU fallback,
 * device health and meters) is exercised; results on it are the CPU's, bit for bit.
 */
@TestConfiguration(proxyBeanMethods = false)
public class GpuStandIn {

    public static final String DEVICE = "fake-gpu:0";

    /** Readings of the fixture device, as a mid-load H100 might give them. */
    public static final MemoryInfo MEMORY = new MemoryInfo(70L << 30, 80L << 30);

    public static final DeviceTelemetry TELEMETRY = new DeviceTelemetry(10L << 30, 80L << 30, 42, 55.0, 312.5);
    public static final AllocatorStats ALLOCATOR = new AllocatorStats(3L << 30, 256L << 20, 17, 1234);

    @Bean
    Backends standInBackends() {
        return new Backends();
    }

    @Bean
    Device standInDevice() {
        return new Device();
    }

    @Bean
    GpuDevices standInDevices(Device device) {
        return new GpuDevices() {
            @Override
            public List<GpuDevice> devices() {
                return List.of(device);
            }

            @Override
            public List<String> statuses() {
                return List.of("stand-in: available, 1 device(s)");
            }
        };
    }

    /** GPU models on fault-injecting CPU backends, one per model, kept for the tests to command. */
    public static final class Backends implements BackendProvider {

        private final Map<String, FaultInjectingBackend> gpu = new ConcurrentHashMap<>();

        @Override
        public boolean available(BackendChoice choice) {
            return true;
        }

        @Override
        public Backend create(BackendChoice choice, String modelId) {
            if (choice == BackendChoice.CPU) {
                return new CpuBackend(1);
            }
            FaultInjectingBackend b = new FaultInjectingBackend(DEVICE, 1);
            gpu.put(modelId, b);
            return b;
        }

        /** The stand-in GPU backend of a model. */
        public FaultInjectingBackend of(String modelId) {
            return gpu.get(modelId);
        }

        public void healAll() {
            gpu.values().forEach(FaultInjectingBackend::heal);
        }
    }

    /** The fixture device: fixed readings, or a driver error on command. */
    public static final class Device implements GpuDevice {

        private final AtomicReference<RuntimeException> driverError = new AtomicReference<>();

        /** Makes every driver call fail with {@code error} (null: answer again). */
        public void failDriver(RuntimeException error) {
            driverError.set(error);
        }

        @Override
        public String id() {
            return DEVICE;
        }

        @Override
        public String name() {
            return "Stand-in GPU";
        }

        @Override
        public MemoryInfo memoryInfo() {
            RuntimeException e = driverError.get();
            if (e != null) {
                throw e;
            }
            return MEMORY;
        }

        @Override
        public Optional<DeviceTelemetry> telemetry() {
            return Optional.of(TELEMETRY);
        }

        @Override
        public AllocatorStats allocatorStats() {
            return ALLOCATOR;
        }

        @Override
        public int streamsLeased() {
            return 1;
        }

        @Override
        public int streamCapacity() {
            return 8;
        }
    }
}
