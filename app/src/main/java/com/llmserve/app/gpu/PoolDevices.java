package com.llmserve.app.gpu;

import com.llmserve.gpu.AllocatorStats;
import com.llmserve.gpu.BackendStatus;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.MemoryInfo;
import com.llmserve.gpu.Vendor;
import java.util.List;
import java.util.Optional;

/** The devices of the runtime's {@link DevicePool}. */
final class PoolDevices implements GpuDevices {

    private final DevicePool pool;
    private final List<GpuDevice> devices;

    PoolDevices(DevicePool pool) {
        this.pool = pool;
        this.devices = pool.devices().stream().<GpuDevice>map(PoolDevice::new).toList();
    }

    @Override
    public List<GpuDevice> devices() {
        return devices;
    }

    @Override
    public List<String> statuses() {
        return pool.statuses().stream().map(BackendStatus::toString).toList();
    }

    /** Named as the GPU compute backend names itself ({@code cuda:0}, {@code hip:0}). */
    static String idOf(Device device) {
        return (device.info().vendor() == Vendor.NVIDIA ? "cuda:" : "hip:")
                + device.info().ordinal();
    }

    private record PoolDevice(Device device, String id) implements GpuDevice {

        PoolDevice(Device device) {
            this(device, idOf(device));
        }

        @Override
        public String name() {
            return device.info().name();
        }

        @Override
        public MemoryInfo memoryInfo() {
            return device.memoryInfo();
        }

        @Override
        public Optional<DeviceTelemetry> telemetry() {
            return device.telemetry();
        }

        @Override
        public AllocatorStats allocatorStats() {
            return device.allocatorStats();
        }

        @Override
        public int streamsLeased() {
            return device.streams().leased();
        }

        @Override
        public int streamCapacity() {
            return device.streams().capacity();
        }
    }
}
