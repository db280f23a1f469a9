package com.llmserve.gpu.cuda;

import static com.llmserve.gpu.spi.CTypes.*;

import com.llmserve.gpu.spi.NativeLibrary;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;

/**
 * NVML ({@code nvml.h}): memory, utilisation, temperature and power per device, matched to CUDA
 * devices by PCI bus id (NVML's indices ignore {@code CUDA_VISIBLE_DEVICES}).
 */
public final class nvml_h {

    private nvml_h() {}

    /** The header these declarations mirror; the binding checks compile against it. */
    public static final String HEADER = "nvml.h";

    /** NVML comes with the kernel driver. */
    public static final NativeLibrary LIBRARY = NativeLibrary.load("libnvidia-ml.so.1");

    public static final int NVML_SUCCESS = 0;
    public static final int NVML_TEMPERATURE_GPU = 0;
    /** {@code NVML_STRUCT_VERSION(Temperature, 1)}: the struct size with the version in the top byte. */
    public static final int nvmlTemperature_v1 = 12 | 1 << 24;

    /** {@code nvmlMemory_t}: total, free and used device memory in bytes. */
    public static final StructLayout nvmlMemory_t = MemoryLayout.structLayout(
                    C_LONG.withName("total"), C_LONG.withName("free"), C_LONG.withName("used"))
            .withName("nvmlMemory_t");

    /** {@code nvmlUtilization_t}: percent of the last sample period the GPU and memory were busy. */
    public static final StructLayout nvmlUtilization_t = MemoryLayout.structLayout(
                    C_INT.withName("gpu"), C_INT.withName("memory"))
            .withName("nvmlUtilization_t");

    /** {@code nvmlTemperature_t} (v1): in version and sensor, out temperature in degrees C. */
    public static final StructLayout nvmlTemperature_t = MemoryLayout.structLayout(
                    C_INT.withName("version"), C_INT.withName("sensorType"), C_INT.withName("temperature"))
            .withName("nvmlTemperature_t");

    private static final MethodHandle nvmlInit_v2$MH = LIBRARY.downcall("nvmlInit_v2", FunctionDescriptor.of(C_INT));

    /** {@code nvmlReturn_t nvmlInit_v2(void)} */
    public static int nvmlInit_v2() {
        try {
            return (int) nvmlInit_v2$MH.invokeExact();
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle nvmlShutdown$MH = LIBRARY.downcall("nvmlShutdown", FunctionDescriptor.of(C_INT));

    /** {@code nvmlReturn_t nvmlShutdown(void)} */
    public static int nvmlShutdown() {
        try {
            return (int) nvmlShutdown$MH.invokeExact();
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle nvmlErrorString$MH =
            LIBRARY.downcall("nvmlErrorString", FunctionDescriptor.of(C_POINTER, C_INT));

    /** {@code const char* nvmlErrorString(nvmlReturn_t result)} */
    public static MemorySegment nvmlErrorString(int result) {
        try {
            return (MemorySegment) nvmlErrorString$MH.invokeExact(result);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle nvmlSystemGetDriverVersion$MH =
            LIBRARY.downcall("nvmlSystemGetDriverVersion", FunctionDescriptor.of(C_INT, C_POINTER, C_INT));

    /** {@code nvmlReturn_t nvmlSystemGetDriverVersion(char* version, unsigned int length)} */
    public static int nvmlSystemGetDriverVersion(MemorySegment version, int length) {
        try {
            return (int) nvmlSystemGetDriverVersion$MH.invokeExact(version, length);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle nvmlDeviceGetHandleByPciBusId_v2$MH =
            LIBRARY.downcall("nvmlDeviceGetHandleByPciBusId_v2", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));

    /** {@code nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char* pciBusId, nvmlDevice_t* device)} */
    public static int nvmlDeviceGetHandleByPciBusId_v2(MemorySegment pciBusId, MemorySegment device) {
        try {
            return (int) nvmlDeviceGetHandleByPciBusId_v2$MH.invokeExact(pciBusId, device);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle nvmlDeviceGetMemoryInfo$MH =
            LIBRARY.downcall("nvmlDeviceGetMemoryInfo", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));

    /** {@code nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t* memory)} */
    public static int nvmlDeviceGetMemoryInfo(MemorySegment device, MemorySegment memory) {
        try {
            return (int) nvmlDeviceGetMemoryInfo$MH.invokeExact(device, memory);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle nvmlDeviceGetUtilizationRates$MH =
            LIBRARY.downcall("nvmlDeviceGetUtilizationRates", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));

    /** {@code nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t* utilization)} */
    public static int nvmlDeviceGetUtilizationRates(MemorySegment device, MemorySegment utilization) {
        try {
            return (int) nvmlDeviceGetUtilizationRates$MH.invokeExact(device, utilization);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle nvmlDeviceGetTemperature$MH =
            LIBRARY.downcall("nvmlDeviceGetTemperature", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER));

    /** {@code nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, nvmlTemperatureSensors_t sensorType, unsigned int* temp)} */
    public static int nvmlDeviceGetTemperature(MemorySegment device, int sensorType, MemorySegment temp) {
        try {
            return (int) nvmlDeviceGetTemperature$MH.invokeExact(device, sensorType, temp);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle nvmlDeviceGetTemperatureV$MH =
            LIBRARY.downcall("nvmlDeviceGetTemperatureV", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));

    /**
     * {@code nvmlReturn_t nvmlDeviceGetTemperatureV(nvmlDevice_t device, nvmlTemperature_t* temperature)}:
     * drivers from R565; NVML 13 deprecates {@link #nvmlDeviceGetTemperature} in its favour.
     */
    public static int nvmlDeviceGetTemperatureV(MemorySegment device, MemorySegment temperature) {
        try {
            return (int) nvmlDeviceGetTemperatureV$MH.invokeExact(device, temperature);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle nvmlDeviceGetPowerUsage$MH =
            LIBRARY.downcall("nvmlDeviceGetPowerUsage", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));

    /** {@code nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int* power)} */
    public static int nvmlDeviceGetPowerUsage(MemorySegment device, MemorySegment power) {
        try {
            return (int) nvmlDeviceGetPowerUsage$MH.invokeExact(device, power);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }
}
