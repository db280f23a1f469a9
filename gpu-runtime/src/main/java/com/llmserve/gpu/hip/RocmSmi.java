package com.llmserve.gpu.hip;

import static com.llmserve.gpu.hip.rocm_smi_h.*;

import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.GpuException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;

/** A rocm-smi session. Optional like NVML: failures become empty readings and a log line. */
final class RocmSmi implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RocmSmi.class.getName());

    private final boolean available;

    private RocmSmi(boolean available) {
        this.available = available;
    }

    static RocmSmi open() {
        if (!LIBRARY.isLoaded()) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "rocm-smi not loaded, no GPU telemetry: {0}",
                    LIBRARY.loadFailure().orElse(""));
            return new RocmSmi(false);
        }
        try {
            HipStatus.RSMI.check(rsmi_init(0), "rsmi_init");
            return new RocmSmi(true);
        } catch (GpuException e) {
            LOG.log(System.Logger.Level.WARNING, "rocm-smi unavailable, no GPU telemetry: {0}", e.getMessage());
            return new RocmSmi(false);
        }
    }

    boolean available() {
        return available;
    }

    /** rocm-smi's index of the device at {@code pciBusId} ({@code dddd:bb:dd.f}). */
    Optional<Integer> indexOf(String pciBusId) {
        if (!available) return Optional.empty();
        long wanted = bdfid(pciBusId);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            HipStatus.RSMI.check(rsmi_num_monitor_devices(count), "rsmi_num_monitor_devices");
            MemorySegment id = arena.allocate(ValueLayout.JAVA_LONG);
            for (int i = 0; i < count.get(ValueLayout.JAVA_INT, 0); i++) {
                HipStatus.RSMI.check(rsmi_dev_pci_id_get(i, id), "rsmi_dev_pci_id_get");
                // rocm-smi may carry a partition id in bits 31:28, which the OS address does not have.
                if ((id.get(ValueLayout.JAVA_LONG, 0) & 0xFFFF_FFFF_0FFF_FFFFL) == wanted) return Optional.of(i);
            }
        } catch (GpuException e) {
            LOG.log(System.Logger.Level.WARNING, "rocm-smi lookup of {0} failed: {1}", pciBusId, e.getMessage());
        }
        return Optional.empty();
    }

    /** rocm-smi's BDFID: domain << 32 | bus << 8 | device << 3 | function. */
    static long bdfid(String pciBusId) {
        String[] parts = pciBusId.split("[:.]");
        if (parts.length != 4) throw new IllegalArgumentException("not a PCI address: " + pciBusId);
        long domain = Long.parseLong(parts[0], 16);
        long bus = Long.parseLong(parts[1], 16);
        long device = Long.parseLong(parts[2], 16);
        long function = Long.parseLong(parts[3], 16);
        return domain << 32 | bus << 8 | device << 3 | function;
    }

    DeviceTelemetry read(int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment used = arena.allocate(ValueLayout.JAVA_LONG);
            HipStatus.RSMI.check(
                    rsmi_dev_memory_usage_get(index, RSMI_MEM_TYPE_VRAM, used), "rsmi_dev_memory_usage_get");
            MemorySegment total = arena.allocate(ValueLayout.JAVA_LONG);
            HipStatus.RSMI.check(
                    rsmi_dev_memory_total_get(index, RSMI_MEM_TYPE_VRAM, total), "rsmi_dev_memory_total_get");
            MemorySegment busy = arena.allocate(ValueLayout.JAVA_INT);
            HipStatus.RSMI.check(rsmi_dev_busy_percent_get(index, busy), "rsmi_dev_busy_percent_get");
            MemorySegment milliCelsius = arena.allocate(ValueLayout.JAVA_LONG);
            HipStatus.RSMI.check(
                    rsmi_dev_temp_metric_get(index, RSMI_TEMP_TYPE_EDGE, RSMI_TEMP_CURRENT, milliCelsius),
                    "rsmi_dev_temp_metric_get");
            MemorySegment microWatts = arena.allocate(ValueLayout.JAVA_LONG);
            MemorySegment powerType = arena.allocate(ValueLayout.JAVA_INT);
            HipStatus.RSMI.check(rsmi_dev_power_get(index, microWatts, powerType), "rsmi_dev_power_get");
            return new DeviceTelemetry(
                    used.get(ValueLayout.JAVA_LONG, 0),
                    total.get(ValueLayout.JAVA_LONG, 0),
                    busy.get(ValueLayout.JAVA_INT, 0),
                    milliCelsius.get(ValueLayout.JAVA_LONG, 0) / 1000.0,
                    microWatts.get(ValueLayout.JAVA_LONG, 0) / 1e6);
        }
    }

    @Override
    public void close() {
        if (available) {
            int rc = rsmi_shut_down();
            if (rc != RSMI_STATUS_SUCCESS)
                LOG.log(
                        System.Logger.Level.WARNING,
                        "rsmi_shut_down: {0}",
                        HipStatus.RSMI.error(rc, "rsmi_shut_down").getMessage());
        }
    }
}
