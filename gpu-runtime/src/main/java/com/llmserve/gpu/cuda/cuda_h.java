package com.llmserve.gpu.cuda;

import static com.llmserve.gpu.spi.CTypes.*;

import com.llmserve.gpu.spi.NativeLibrary;
import com.llmserve.gpu.spi.SharedCalls;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;

/**
 * The CUDA driver API ({@code cuda.h}), cut to the symbols the runtime calls. {@code cuda.h} maps
 * many names to versioned symbols by macro ({@code cuMemAlloc} is {@code cuMemAlloc_v2},
 * {@code cuEventElapsedTime} is {@code cuEventElapsedTime_v2} in CUDA 13, {@code cuGraphInstantiate}
 * is {@code cuGraphInstantiateWithFlags}); these bindings use the exported names, and the binding
 * checks fail if a bound name is itself such a macro.
 */
public final class cuda_h {

    private cuda_h() {}

    /** The header these declarations mirror; the binding checks compile against it. */
    public static final String HEADER = "cuda.h";

    /** The driver library; it comes with the kernel driver, not the toolkit. */
    public static final NativeLibrary LIBRARY = NativeLibrary.load("libcuda.so.1");

    public static final int CUDA_SUCCESS = 0;
    public static final int CUDA_ERROR_OUT_OF_MEMORY = 2;
    public static final int CUDA_ERROR_NO_DEVICE = 100;
    public static final int CUDA_ERROR_NOT_FOUND = 500;
    public static final int CUDA_ERROR_NOT_READY = 600;
    public static final int CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704;
    public static final int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
    public static final int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
    public static final int CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10;
    public static final int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
    public static final int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
    public static final int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
    public static final int CU_STREAM_NON_BLOCKING = 1;
    public static final int CU_EVENT_DEFAULT = 0;
    public static final int CU_EVENT_DISABLE_TIMING = 2;
    public static final int CU_STREAM_CAPTURE_MODE_RELAXED = 2;
    public static final int CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6;

    /**
     * {@code CUlaunchAttribute}: an attribute id, then its value in a 64-byte union (for
     * programmatic stream serialization, an int at its start).
     */
    public static final StructLayout CUlaunchAttribute = MemoryLayout.structLayout(
                    C_INT.withName("id"),
                    MemoryLayout.paddingLayout(4),
                    MemoryLayout.sequenceLayout(64, C_CHAR).withName("value"))
            .withName("CUlaunchAttribute");

    /** {@code CUlaunchConfig}: the grid, the block, dynamic shared memory, stream and attributes of a launch. */
    public static final StructLayout CUlaunchConfig = MemoryLayout.structLayout(
                    C_INT.withName("gridDimX"),
                    C_INT.withName("gridDimY"),
                    C_INT.withName("gridDimZ"),
                    C_INT.withName("blockDimX"),
                    C_INT.withName("blockDimY"),
                    C_INT.withName("blockDimZ"),
                    C_INT.withName("sharedMemBytes"),
                    MemoryLayout.paddingLayout(4),
                    C_POINTER.withName("hStream"),
                    C_POINTER.withName("attrs"),
                    C_INT.withName("numAttrs"),
                    MemoryLayout.paddingLayout(4))
            .withName("CUlaunchConfig");

    private static final MethodHandle cuInit$MH = LIBRARY.downcall("cuInit", FunctionDescriptor.of(C_INT, C_INT));

    /** {@code CUresult cuInit(unsigned int Flags)} */
    public static int cuInit(int Flags) {
        try {
            return (int) cuInit$MH.invokeExact(Flags);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuDriverGetVersion$MH =
            LIBRARY.downcall("cuDriverGetVersion", FunctionDescriptor.of(C_INT, C_POINTER));

    /** {@code CUresult cuDriverGetVersion(int* driverVersion)} */
    public static int cuDriverGetVersion(MemorySegment driverVersion) {
        try {
            return (int) cuDriverGetVersion$MH.invokeExact(driverVersion);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuDeviceGetCount$MH =
            LIBRARY.downcall("cuDeviceGetCount", FunctionDescriptor.of(C_INT, C_POINTER));

    /** {@code CUresult cuDeviceGetCount(int* count)} */
    public static int cuDeviceGetCount(MemorySegment count) {
        try {
            return (int) cuDeviceGetCount$MH.invokeExact(count);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuDeviceGet$MH =
            LIBRARY.downcall("cuDeviceGet", FunctionDescriptor.of(C_INT, C_POINTER, C_INT));

    /** {@code CUresult cuDeviceGet(CUdevice* device, int ordinal)} */
    public static int cuDeviceGet(MemorySegment device, int ordinal) {
        try {
            return (int) cuDeviceGet$MH.invokeExact(device, ordinal);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuDeviceGetName$MH =
            LIBRARY.downcall("cuDeviceGetName", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT));

    /** {@code CUresult cuDeviceGetName(char* name, int len, CUdevice dev)} */
    public static int cuDeviceGetName(MemorySegment name, int len, int dev) {
        try {
            return (int) cuDeviceGetName$MH.invokeExact(name, len, dev);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuDeviceGetAttribute$MH =
            LIBRARY.downcall("cuDeviceGetAttribute", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT));

    /** {@code CUresult cuDeviceGetAttribute(int* pi, CUdevice_attribute attrib, CUdevice dev)} */
    public static int cuDeviceGetAttribute(MemorySegment pi, int attrib, int dev) {
        try {
            return (int) cuDeviceGetAttribute$MH.invokeExact(pi, attrib, dev);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuDeviceTotalMem_v2$MH =
            LIBRARY.downcall("cuDeviceTotalMem_v2", FunctionDescriptor.of(C_INT, C_POINTER, C_INT));

    /** {@code CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice dev)} */
    public static int cuDeviceTotalMem_v2(MemorySegment bytes, int dev) {
        try {
            return (int) cuDeviceTotalMem_v2$MH.invokeExact(bytes, dev);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuDeviceGetPCIBusId$MH =
            LIBRARY.downcall("cuDeviceGetPCIBusId", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT));

    /** {@code CUresult cuDeviceGetPCIBusId(char* pciBusId, int len, CUdevice dev)} */
    public static int cuDeviceGetPCIBusId(MemorySegment pciBusId, int len, int dev) {
        try {
            return (int) cuDeviceGetPCIBusId$MH.invokeExact(pciBusId, len, dev);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuDevicePrimaryCtxRetain$MH =
            LIBRARY.downcall("cuDevicePrimaryCtxRetain", FunctionDescriptor.of(C_INT, C_POINTER, C_INT));

    /** {@code CUresult cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev)} */
    public static int cuDevicePrimaryCtxRetain(MemorySegment pctx, int dev) {
        try {
            return (int) cuDevicePrimaryCtxRetain$MH.invokeExact(pctx, dev);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuDevicePrimaryCtxRelease_v2$MH =
            LIBRARY.downcall("cuDevicePrimaryCtxRelease_v2", FunctionDescriptor.of(C_INT, C_INT));

    /** {@code CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)} */
    public static int cuDevicePrimaryCtxRelease_v2(int dev) {
        try {
            return (int) cuDevicePrimaryCtxRelease_v2$MH.invokeExact(dev);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuCtxSetCurrent$MH =
            LIBRARY.downcall("cuCtxSetCurrent", FunctionDescriptor.of(C_INT, C_POINTER));

    /** {@code CUresult cuCtxSetCurrent(CUcontext ctx)} */
    public static int cuCtxSetCurrent(MemorySegment ctx) {
        try {
            return (int) cuCtxSetCurrent$MH.invokeExact(ctx);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuDeviceCanAccessPeer$MH =
            LIBRARY.downcall("cuDeviceCanAccessPeer", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT));

    /** {@code CUresult cuDeviceCanAccessPeer(int* canAccessPeer, CUdevice dev, CUdevice peerDev)} */
    public static int cuDeviceCanAccessPeer(MemorySegment canAccessPeer, int dev, int peerDev) {
        try {
            return (int) cuDeviceCanAccessPeer$MH.invokeExact(canAccessPeer, dev, peerDev);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuCtxEnablePeerAccess$MH =
            LIBRARY.downcall("cuCtxEnablePeerAccess", FunctionDescriptor.of(C_INT, C_POINTER, C_INT));

    /** {@code CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)} */
    public static int cuCtxEnablePeerAccess(MemorySegment peerContext, int Flags) {
        try {
            return (int) cuCtxEnablePeerAccess$MH.invokeExact(peerContext, Flags);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuMemFree_v2$MH =
            LIBRARY.downcall("cuMemFree_v2", FunctionDescriptor.of(C_INT, C_LONG));

    /** {@code CUresult cuMemFree_v2(CUdeviceptr dptr)} */
    public static int cuMemFree_v2(long dptr) {
        try {
            return (int) cuMemFree_v2$MH.invokeExact(dptr);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuMemAllocHost_v2$MH =
            LIBRARY.downcall("cuMemAllocHost_v2", FunctionDescriptor.of(C_INT, C_POINTER, C_LONG));

    /** {@code CUresult cuMemAllocHost_v2(void** pp, size_t bytesize)} */
    public static int cuMemAllocHost_v2(MemorySegment pp, long bytesize) {
        try {
            return (int) cuMemAllocHost_v2$MH.invokeExact(pp, bytesize);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuMemcpyHtoDAsync_v2$MH = LIBRARY.downcall(
            "cuMemcpyHtoDAsync_v2", FunctionDescriptor.of(C_INT, C_LONG, C_POINTER, C_LONG, C_POINTER));

    /** {@code CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount, CUstream hStream)} */
    public static int cuMemcpyHtoDAsync_v2(
            long dstDevice, MemorySegment srcHost, long ByteCount, MemorySegment hStream) {
        try {
            return (int) cuMemcpyHtoDAsync_v2$MH.invokeExact(dstDevice, srcHost, ByteCount, hStream);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuMemcpyDtoHAsync_v2$MH = LIBRARY.downcall(
            "cuMemcpyDtoHAsync_v2", FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_LONG, C_POINTER));

    /** {@code CUresult cuMemcpyDtoHAsync_v2(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)} */
    public static int cuMemcpyDtoHAsync_v2(
            MemorySegment dstHost, long srcDevice, long ByteCount, MemorySegment hStream) {
        try {
            return (int) cuMemcpyDtoHAsync_v2$MH.invokeExact(dstHost, srcDevice, ByteCount, hStream);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuMemcpyDtoDAsync_v2$MH =
            LIBRARY.downcall("cuMemcpyDtoDAsync_v2", FunctionDescriptor.of(C_INT, C_LONG, C_LONG, C_LONG, C_POINTER));

    /** {@code CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)} */
    public static int cuMemcpyDtoDAsync_v2(long dstDevice, long srcDevice, long ByteCount, MemorySegment hStream) {
        try {
            return (int) cuMemcpyDtoDAsync_v2$MH.invokeExact(dstDevice, srcDevice, ByteCount, hStream);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuMemsetD8Async$MH =
            LIBRARY.downcall("cuMemsetD8Async", FunctionDescriptor.of(C_INT, C_LONG, C_CHAR, C_LONG, C_POINTER));

    /** {@code CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)} */
    public static int cuMemsetD8Async(long dstDevice, byte uc, long N, MemorySegment hStream) {
        try {
            return (int) cuMemsetD8Async$MH.invokeExact(dstDevice, uc, N, hStream);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuGraphInstantiateWithFlags$MH =
            LIBRARY.downcall("cuGraphInstantiateWithFlags", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_LONG));

    /** {@code CUresult cuGraphInstantiateWithFlags(CUgraphExec* phGraphExec, CUgraph hGraph, unsigned long long flags)} */
    public static int cuGraphInstantiateWithFlags(MemorySegment phGraphExec, MemorySegment hGraph, long flags) {
        try {
            return (int) cuGraphInstantiateWithFlags$MH.invokeExact(phGraphExec, hGraph, flags);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuGetErrorName$MH =
            LIBRARY.downcall("cuGetErrorName", FunctionDescriptor.of(C_INT, C_INT, C_POINTER));

    /** {@code CUresult cuGetErrorName(CUresult error, const char** pStr)} */
    public static int cuGetErrorName(int error, MemorySegment pStr) {
        try {
            return (int) cuGetErrorName$MH.invokeExact(error, pStr);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuGetErrorString$MH =
            LIBRARY.downcall("cuGetErrorString", FunctionDescriptor.of(C_INT, C_INT, C_POINTER));

    /** {@code CUresult cuGetErrorString(CUresult error, const char** pStr)} */
    public static int cuGetErrorString(int error, MemorySegment pStr) {
        try {
            return (int) cuGetErrorString$MH.invokeExact(error, pStr);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle cuLaunchKernelEx$MH = LIBRARY.downcall(
            "cuLaunchKernelEx", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER));

    /** {@code CUresult cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** kernelParams, void** extra)} */
    public static int cuLaunchKernelEx(
            MemorySegment config, MemorySegment f, MemorySegment kernelParams, MemorySegment extra) {
        try {
            return (int) cuLaunchKernelEx$MH.invokeExact(config, f, kernelParams, extra);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    /** The calls HIP shares, by their CUDA names: bound here so the checks see them with the rest. */
    public static final SharedCalls SHARED = SharedCalls.bind(
            LIBRARY,
            new SharedCalls.Names(
                    "cuMemGetInfo_v2",
                    "cuCtxSynchronize",
                    "cuMemAlloc_v2",
                    "cuMemFreeHost",
                    "cuStreamCreate",
                    "cuStreamDestroy_v2",
                    "cuStreamSynchronize",
                    "cuStreamWaitEvent",
                    "cuEventCreate",
                    "cuEventDestroy_v2",
                    "cuEventRecord",
                    "cuEventSynchronize",
                    "cuEventQuery",
                    "cuEventElapsedTime_v2",
                    "cuModuleLoadData",
                    "cuModuleUnload",
                    "cuModuleGetFunction",
                    "cuLaunchKernel",
                    "cuStreamBeginCapture_v2",
                    "cuStreamEndCapture",
                    "cuGraphLaunch",
                    "cuGraphDestroy",
                    "cuGraphExecDestroy"),
            new SharedCalls.Codes(
                    CUDA_ERROR_NOT_READY,
                    CUDA_ERROR_NOT_FOUND,
                    CU_STREAM_NON_BLOCKING,
                    CU_EVENT_DEFAULT,
                    CU_EVENT_DISABLE_TIMING,
                    CU_STREAM_CAPTURE_MODE_RELAXED));
}
