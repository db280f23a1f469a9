package com.llmserve.gpu.hip;

import static com.llmserve.gpu.spi.CTypes.*;

import com.llmserve.gpu.spi.NativeLibrary;
import com.llmserve.gpu.spi.SharedCalls;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;

/**
 * The HIP runtime API ({@code hip/hip_runtime_api.h}), cut to the symbols the runtime calls. One
 * {@link MethodHandle} per exported symbol, named as exported ({@code hipGetDevicePropertiesR0600},
 * not the {@code hipGetDeviceProperties} macro); statuses are {@code hipError_t} values.
 */
public final class hip_runtime_api_h {

    private hip_runtime_api_h() {}

    /** The header these declarations mirror; the binding checks compile against it. */
    public static final String HEADER = "hip/hip_runtime_api.h";

    /** ROCm 6 first; ROCm 5 (Debian bookworm) still answers the probe calls, which is what CI loads. */
    public static final NativeLibrary LIBRARY = NativeLibrary.load("libamdhip64.so.6", "libamdhip64.so.5");

    public static final int hipSuccess = 0;
    public static final int hipErrorOutOfMemory = 2;
    public static final int hipErrorNoDevice = 100;
    public static final int hipErrorNotFound = 500;
    public static final int hipErrorNotReady = 600;
    public static final int hipErrorPeerAccessAlreadyEnabled = 704;
    public static final int hipMemcpyHostToDevice = 1;
    public static final int hipMemcpyDeviceToHost = 2;
    public static final int hipMemcpyDeviceToDevice = 3;
    public static final int hipStreamNonBlocking = 1;
    public static final int hipEventDefault = 0;
    public static final int hipEventDisableTiming = 2;
    public static final int hipHostMallocDefault = 0;
    public static final int hipStreamCaptureModeRelaxed = 2;

    /**
     * {@code hipDeviceProp_tR0600}, the properties struct of HIP 6 ({@code hipGetDeviceProperties} is a
     * macro for {@code hipGetDevicePropertiesR0600}). Only the members we read are named; the rest is
     * padding at the offsets the ROCm 6.4 header gives, which the binding checks assert.
     */
    public static final StructLayout hipDeviceProp_tR0600 = MemoryLayout.structLayout(
                    MemoryLayout.sequenceLayout(256, C_CHAR).withName("name"),
                    MemoryLayout.paddingLayout(32),
                    C_SIZE_T.withName("totalGlobalMem"),
                    C_SIZE_T.withName("sharedMemPerBlock"),
                    MemoryLayout.paddingLayout(4),
                    C_INT.withName("warpSize"),
                    MemoryLayout.paddingLayout(8),
                    C_INT.withName("maxThreadsPerBlock"),
                    MemoryLayout.paddingLayout(36),
                    C_INT.withName("major"),
                    C_INT.withName("minor"),
                    MemoryLayout.paddingLayout(20),
                    C_INT.withName("multiProcessorCount"),
                    MemoryLayout.paddingLayout(192),
                    C_INT.withName("pciBusID"),
                    C_INT.withName("pciDeviceID"),
                    C_INT.withName("pciDomainID"),
                    MemoryLayout.paddingLayout(16),
                    C_INT.withName("memoryBusWidth"),
                    C_INT.withName("l2CacheSize"),
                    MemoryLayout.paddingLayout(540),
                    MemoryLayout.sequenceLayout(256, C_CHAR).withName("gcnArchName"),
                    MemoryLayout.paddingLayout(56))
            .withName("hipDeviceProp_tR0600");

    private static final MethodHandle hipGetDeviceCount$MH =
            LIBRARY.downcall("hipGetDeviceCount", FunctionDescriptor.of(C_INT, C_POINTER));

    /** {@code hipError_t hipGetDeviceCount(int* count)} */
    public static int hipGetDeviceCount(MemorySegment count) {
        try {
            return (int) hipGetDeviceCount$MH.invokeExact(count);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle hipRuntimeGetVersion$MH =
            LIBRARY.downcall("hipRuntimeGetVersion", FunctionDescriptor.of(C_INT, C_POINTER));

    /** {@code hipError_t hipRuntimeGetVersion(int* runtimeVersion)} */
    public static int hipRuntimeGetVersion(MemorySegment runtimeVersion) {
        try {
            return (int) hipRuntimeGetVersion$MH.invokeExact(runtimeVersion);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle hipDriverGetVersion$MH =
            LIBRARY.downcall("hipDriverGetVersion", FunctionDescriptor.of(C_INT, C_POINTER));

    /** {@code hipError_t hipDriverGetVersion(int* driverVersion)} */
    public static int hipDriverGetVersion(MemorySegment driverVersion) {
        try {
            return (int) hipDriverGetVersion$MH.invokeExact(driverVersion);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle hipSetDevice$MH =
            LIBRARY.downcall("hipSetDevice", FunctionDescriptor.of(C_INT, C_INT));

    /** {@code hipError_t hipSetDevice(int deviceId)} */
    public static int hipSetDevice(int deviceId) {
        try {
            return (int) hipSetDevice$MH.invokeExact(deviceId);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle hipGetDevicePropertiesR0600$MH =
            LIBRARY.downcall("hipGetDevicePropertiesR0600", FunctionDescriptor.of(C_INT, C_POINTER, C_INT));

    /** {@code hipError_t hipGetDevicePropertiesR0600(hipDeviceProp_tR0600* prop, int deviceId)} */
    public static int hipGetDevicePropertiesR0600(MemorySegment prop, int deviceId) {
        try {
            return (int) hipGetDevicePropertiesR0600$MH.invokeExact(prop, deviceId);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle hipDeviceGetPCIBusId$MH =
            LIBRARY.downcall("hipDeviceGetPCIBusId", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT));

    /** {@code hipError_t hipDeviceGetPCIBusId(char* pciBusId, int len, int device)} */
    public static int hipDeviceGetPCIBusId(MemorySegment pciBusId, int len, int device) {
        try {
            return (int) hipDeviceGetPCIBusId$MH.invokeExact(pciBusId, len, device);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle hipDeviceCanAccessPeer$MH =
            LIBRARY.downcall("hipDeviceCanAccessPeer", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT));

    /** {@code hipError_t hipDeviceCanAccessPeer(int* canAccessPeer, int deviceId, int peerDeviceId)} */
    public static int hipDeviceCanAccessPeer(MemorySegment canAccessPeer, int deviceId, int peerDeviceId) {
        try {
            return (int) hipDeviceCanAccessPeer$MH.invokeExact(canAccessPeer, deviceId, peerDeviceId);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle hipDeviceEnablePeerAccess$MH =
            LIBRARY.downcall("hipDeviceEnablePeerAccess", FunctionDescriptor.of(C_INT, C_INT, C_INT));

    /** {@code hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags)} */
    public static int hipDeviceEnablePeerAccess(int peerDeviceId, int flags) {
        try {
            return (int) hipDeviceEnablePeerAccess$MH.invokeExact(peerDeviceId, flags);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle hipFree$MH = LIBRARY.downcall("hipFree", FunctionDescriptor.of(C_INT, C_POINTER));

    /** {@code hipError_t hipFree(void* ptr)} */
    public static int hipFree(MemorySegment ptr) {
        try {
            return (int) hipFree$MH.invokeExact(ptr);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle hipHostMalloc$MH =
            LIBRARY.downcall("hipHostMalloc", FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_INT));

    /** {@code hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags)} */
    public static int hipHostMalloc(MemorySegment ptr, long size, int flags) {
        try {
            return (int) hipHostMalloc$MH.invokeExact(ptr, size, flags);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle hipMemcpyAsync$MH = LIBRARY.downcall(
            "hipMemcpyAsync", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_LONG, C_INT, C_POINTER));

    /** {@code hipError_t hipMemcpyAsync(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind, hipStream_t stream)} */
    public static int hipMemcpyAsync(
            MemorySegment dst, MemorySegment src, long sizeBytes, int kind, MemorySegment stream) {
        try {
            return (int) hipMemcpyAsync$MH.invokeExact(dst, src, sizeBytes, kind, stream);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle hipMemsetAsync$MH =
            LIBRARY.downcall("hipMemsetAsync", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_LONG, C_POINTER));

    /** {@code hipError_t hipMemsetAsync(void* dst, int value, size_t sizeBytes, hipStream_t stream)} */
    public static int hipMemsetAsync(MemorySegment dst, int value, long sizeBytes, MemorySegment stream) {
        try {
            return (int) hipMemsetAsync$MH.invokeExact(dst, value, sizeBytes, stream);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle hipGraphInstantiate$MH = LIBRARY.downcall(
            "hipGraphInstantiate", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_LONG));

    /** {@code hipError_t hipGraphInstantiate(hipGraphExec_t* pGraphExec, hipGraph_t graph, hipGraphNode_t* pErrorNode, char* pLogBuffer, size_t bufferSize)} */
    public static int hipGraphInstantiate(
            MemorySegment pGraphExec,
            MemorySegment graph,
            MemorySegment pErrorNode,
            MemorySegment pLogBuffer,
            long bufferSize) {
        try {
            return (int) hipGraphInstantiate$MH.invokeExact(pGraphExec, graph, pErrorNode, pLogBuffer, bufferSize);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle hipGetErrorName$MH =
            LIBRARY.downcall("hipGetErrorName", FunctionDescriptor.of(C_POINTER, C_INT));

    /** {@code const char* hipGetErrorName(hipError_t hip_error)} */
    public static MemorySegment hipGetErrorName(int error) {
        try {
            return (MemorySegment) hipGetErrorName$MH.invokeExact(error);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle hipGetErrorString$MH =
            LIBRARY.downcall("hipGetErrorString", FunctionDescriptor.of(C_POINTER, C_INT));

    /** {@code const char* hipGetErrorString(hipError_t hipError)} */
    public static MemorySegment hipGetErrorString(int error) {
        try {
            return (MemorySegment) hipGetErrorString$MH.invokeExact(error);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    /** The calls HIP shares with CUDA, by their HIP names: bound here so the checks see them with the rest. */
    public static final SharedCalls SHARED = SharedCalls.bind(
            LIBRARY,
            new SharedCalls.Names(
                    "hipMemGetInfo",
                    "hipDeviceSynchronize",
                    "hipMalloc",
                    "hipHostFree",
                    "hipStreamCreateWithFlags",
                    "hipStreamDestroy",
                    "hipStreamSynchronize",
                    "hipStreamWaitEvent",
                    "hipEventCreateWithFlags",
                    "hipEventDestroy",
                    "hipEventRecord",
                    "hipEventSynchronize",
                    "hipEventQuery",
                    "hipEventElapsedTime",
                    "hipModuleLoadData",
                    "hipModuleUnload",
                    "hipModuleGetFunction",
                    "hipModuleLaunchKernel",
                    "hipStreamBeginCapture",
                    "hipStreamEndCapture",
                    "hipGraphLaunch",
                    "hipGraphDestroy",
                    "hipGraphExecDestroy"),
            new SharedCalls.Codes(
                    hipErrorNotReady,
                    hipErrorNotFound,
                    hipStreamNonBlocking,
                    hipEventDefault,
                    hipEventDisableTiming,
                    hipStreamCaptureModeRelaxed));
}
