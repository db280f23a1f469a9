package com.llmserve.gpu.hip;

import static com.llmserve.gpu.spi.CTypes.*;

import com.llmserve.gpu.spi.NativeLibrary;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * rocm-smi ({@code rocm_smi/rocm_smi.h}): VRAM, busy percent, temperature and power per device.
 * Its device indices are not HIP's (visibility masks reorder them), so devices are matched by PCI
 * address ({@code rsmi_dev_pci_id_get}).
 */
public final class rocm_smi_h {

    private rocm_smi_h() {}

    /** The header these declarations mirror; the binding checks compile against it. */
    public static final String HEADER = "rocm_smi/rocm_smi.h";

    /** rocm-smi 1 (ROCm 6). */
    public static final NativeLibrary LIBRARY = NativeLibrary.load("librocm_smi64.so.1");

    public static final int RSMI_STATUS_SUCCESS = 0;
    public static final int RSMI_MEM_TYPE_VRAM = 0;
    public static final int RSMI_TEMP_TYPE_EDGE = 0;
    public static final int RSMI_TEMP_TYPE_JUNCTION = 1;
    public static final int RSMI_TEMP_CURRENT = 0;

    private static final MethodHandle rsmi_init$MH =
            LIBRARY.downcall("rsmi_init", FunctionDescriptor.of(C_INT, C_LONG));

    /** {@code rsmi_status_t rsmi_init(uint64_t init_flags)} */
    public static int rsmi_init(long init_flags) {
        try {
            return (int) rsmi_init$MH.invokeExact(init_flags);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle rsmi_shut_down$MH =
            LIBRARY.downcall("rsmi_shut_down", FunctionDescriptor.of(C_INT));

    /** {@code rsmi_status_t rsmi_shut_down(void)} */
    public static int rsmi_shut_down() {
        try {
            return (int) rsmi_shut_down$MH.invokeExact();
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle rsmi_num_monitor_devices$MH =
            LIBRARY.downcall("rsmi_num_monitor_devices", FunctionDescriptor.of(C_INT, C_POINTER));

    /** {@code rsmi_status_t rsmi_num_monitor_devices(uint32_t* num_devices)} */
    public static int rsmi_num_monitor_devices(MemorySegment num_devices) {
        try {
            return (int) rsmi_num_monitor_devices$MH.invokeExact(num_devices);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle rsmi_dev_pci_id_get$MH =
            LIBRARY.downcall("rsmi_dev_pci_id_get", FunctionDescriptor.of(C_INT, C_INT, C_POINTER));

    /** {@code rsmi_status_t rsmi_dev_pci_id_get(uint32_t dv_ind, uint64_t* bdfid)} */
    public static int rsmi_dev_pci_id_get(int dv_ind, MemorySegment bdfid) {
        try {
            return (int) rsmi_dev_pci_id_get$MH.invokeExact(dv_ind, bdfid);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle rsmi_dev_memory_total_get$MH =
            LIBRARY.downcall("rsmi_dev_memory_total_get", FunctionDescriptor.of(C_INT, C_INT, C_INT, C_POINTER));

    /** {@code rsmi_status_t rsmi_dev_memory_total_get(uint32_t dv_ind, rsmi_memory_type_t mem_type, uint64_t* total)} */
    public static int rsmi_dev_memory_total_get(int dv_ind, int mem_type, MemorySegment total) {
        try {
            return (int) rsmi_dev_memory_total_get$MH.invokeExact(dv_ind, mem_type, total);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle rsmi_dev_memory_usage_get$MH =
            LIBRARY.downcall("rsmi_dev_memory_usage_get", FunctionDescriptor.of(C_INT, C_INT, C_INT, C_POINTER));

    /** {@code rsmi_status_t rsmi_dev_memory_usage_get(uint32_t dv_ind, rsmi_memory_type_t mem_type, uint64_t* used)} */
    public static int rsmi_dev_memory_usage_get(int dv_ind, int mem_type, MemorySegment used) {
        try {
            return (int) rsmi_dev_memory_usage_get$MH.invokeExact(dv_ind, mem_type, used);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle rsmi_dev_busy_percent_get$MH =
            LIBRARY.downcall("rsmi_dev_busy_percent_get", FunctionDescriptor.of(C_INT, C_INT, C_POINTER));

    /** {@code rsmi_status_t rsmi_dev_busy_percent_get(uint32_t dv_ind, uint32_t* busy_percent)} */
    public static int rsmi_dev_busy_percent_get(int dv_ind, MemorySegment busy_percent) {
        try {
            return (int) rsmi_dev_busy_percent_get$MH.invokeExact(dv_ind, busy_percent);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle rsmi_dev_temp_metric_get$MH =
            LIBRARY.downcall("rsmi_dev_temp_metric_get", FunctionDescriptor.of(C_INT, C_INT, C_INT, C_INT, C_POINTER));

    /** {@code rsmi_status_t rsmi_dev_temp_metric_get(uint32_t dv_ind, uint32_t sensor_type, rsmi_temperature_metric_t metric, int64_t* temperature)} */
    public static int rsmi_dev_temp_metric_get(int dv_ind, int sensor_type, int metric, MemorySegment temperature) {
        try {
            return (int) rsmi_dev_temp_metric_get$MH.invokeExact(dv_ind, sensor_type, metric, temperature);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle rsmi_dev_power_get$MH =
            LIBRARY.downcall("rsmi_dev_power_get", FunctionDescriptor.of(C_INT, C_INT, C_POINTER, C_POINTER));

    /** {@code rsmi_status_t rsmi_dev_power_get(uint32_t dv_ind, uint64_t* power, RSMI_POWER_TYPE* type)} */
    public static int rsmi_dev_power_get(int dv_ind, MemorySegment power, MemorySegment type) {
        try {
            return (int) rsmi_dev_power_get$MH.invokeExact(dv_ind, power, type);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle rsmi_status_string$MH =
            LIBRARY.downcall("rsmi_status_string", FunctionDescriptor.of(C_INT, C_INT, C_POINTER));

    /** {@code rsmi_status_t rsmi_status_string(rsmi_status_t status, const char** status_string)} */
    public static int rsmi_status_string(int status, MemorySegment status_string) {
        try {
            return (int) rsmi_status_string$MH.invokeExact(status, status_string);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }
}
