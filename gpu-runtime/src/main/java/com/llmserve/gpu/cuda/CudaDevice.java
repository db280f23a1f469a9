package com.llmserve.gpu.cuda;

import static com.llmserve.gpu.cuda.CudaStatus.CU;
import static com.llmserve.gpu.cuda.cuda_h.*;

import com.llmserve.gpu.DeviceArch;
import com.llmserve.gpu.DeviceInfo;
import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.gpu.MemoryInfo;
import com.llmserve.gpu.spi.BlasDriver;
import com.llmserve.gpu.spi.DeviceDriver;
import com.llmserve.gpu.spi.DnnDriver;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;

/**
 * One NVIDIA device through its primary context (the one the CUDA runtime and cuBLAS share).
 * Every call sets that context current on the calling thread first: the driver keeps the current
 * context per OS thread, and a virtual thread may resume on another carrier between two calls.
 */
final class CudaDevice implements DeviceDriver {

    private final int device;
    private final MemorySegment context;
    private final DeviceInfo info;
    private final Nvml nvml;
    private final Optional<MemorySegment> nvmlDevice;

    CudaDevice(int ordinal, Nvml nvml) {
        this.nvml = nvml;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dev = arena.allocate(ValueLayout.JAVA_INT);
            CU.check(cuDeviceGet(dev, ordinal), "cuDeviceGet");
            this.device = dev.get(ValueLayout.JAVA_INT, 0);
            MemorySegment ctx = arena.allocate(ValueLayout.ADDRESS);
            CU.check(cuDevicePrimaryCtxRetain(ctx, device), "cuDevicePrimaryCtxRetain");
            this.context = ctx.get(ValueLayout.ADDRESS, 0);
            try {
                bind();
                this.info = readInfo(arena, ordinal);
            } catch (RuntimeException e) {
                cuDevicePrimaryCtxRelease_v2(device);
                throw e;
            }
        }
        this.nvmlDevice = nvml.device(info.pciBusId());
    }

    private DeviceInfo readInfo(Arena arena, int ordinal) {
        MemorySegment name = arena.allocate(256);
        CU.check(cuDeviceGetName(name, 256, device), "cuDeviceGetName");
        MemorySegment bytes = arena.allocate(ValueLayout.JAVA_LONG);
        CU.check(cuDeviceTotalMem_v2(bytes, device), "cuDeviceTotalMem_v2");
        MemorySegment pci = arena.allocate(32);
        CU.check(cuDeviceGetPCIBusId(pci, 32, device), "cuDeviceGetPCIBusId");
        return new DeviceInfo(
                ordinal,
                name.getString(0),
                DeviceArch.ofComputeCapability(
                        attribute(arena, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                        attribute(arena, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)),
                bytes.get(ValueLayout.JAVA_LONG, 0),
                attribute(arena, CU_DEVICE_ATTRIBUTE_WARP_SIZE),
                attribute(arena, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
                attribute(arena, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
                attribute(arena, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
                pci.getString(0));
    }

    private int attribute(Arena arena, int attribute) {
        MemorySegment out = arena.allocate(ValueLayout.JAVA_INT);
        CU.check(cuDeviceGetAttribute(out, attribute, device), "cuDeviceGetAttribute");
        return out.get(ValueLayout.JAVA_INT, 0);
    }

    void bind() {
        CU.check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
    }

    private static MemorySegment ptr(long address) {
        return MemorySegment.ofAddress(address);
    }

    @Override
    public DeviceInfo info() {
        return info;
    }

    @Override
    public MemoryInfo memoryInfo() {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment free = arena.allocate(ValueLayout.JAVA_LONG);
            MemorySegment total = arena.allocate(ValueLayout.JAVA_LONG);
            CU.check(cuMemGetInfo_v2(free, total), "cuMemGetInfo_v2");
            return new MemoryInfo(free.get(ValueLayout.JAVA_LONG, 0), total.get(ValueLayout.JAVA_LONG, 0));
        }
    }

    @Override
    public void synchronize() {
        bind();
        CU.check(cuCtxSynchronize(), "cuCtxSynchronize");
    }

    @Override
    public long malloc(long bytes) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.JAVA_LONG);
            CU.check(cuMemAlloc_v2(out, bytes), "cuMemAlloc_v2");
            return out.get(ValueLayout.JAVA_LONG, 0);
        }
    }

    @Override
    public void free(long pointer) {
        bind();
        CU.check(cuMemFree_v2(pointer), "cuMemFree_v2");
    }

    @Override
    public MemorySegment hostAlloc(long bytes) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            CU.check(cuMemAllocHost_v2(out, bytes), "cuMemAllocHost_v2");
            return out.get(ValueLayout.ADDRESS, 0).reinterpret(bytes);
        }
    }

    @Override
    public void hostFree(MemorySegment segment) {
        bind();
        CU.check(cuMemFreeHost(MemorySegment.ofAddress(segment.address())), "cuMemFreeHost");
    }

    @Override
    public void copyHostToDevice(long dst, MemorySegment src, long bytes, long stream) {
        bind();
        CU.check(cuMemcpyHtoDAsync_v2(dst, src, bytes, ptr(stream)), "cuMemcpyHtoDAsync_v2");
    }

    @Override
    public void copyDeviceToHost(MemorySegment dst, long src, long bytes, long stream) {
        bind();
        CU.check(cuMemcpyDtoHAsync_v2(dst, src, bytes, ptr(stream)), "cuMemcpyDtoHAsync_v2");
    }

    @Override
    public void copyDeviceToDevice(long dst, long src, long bytes, long stream) {
        bind();
        CU.check(cuMemcpyDtoDAsync_v2(dst, src, bytes, ptr(stream)), "cuMemcpyDtoDAsync_v2");
    }

    @Override
    public void fill(long dst, byte value, long bytes, long stream) {
        bind();
        CU.check(cuMemsetD8Async(dst, value, bytes, ptr(stream)), "cuMemsetD8Async");
    }

    @Override
    public long createStream() {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            // Non-blocking: our streams must not serialise behind the legacy default stream, which
            // cuBLAS or another library in the process might use.
            CU.check(cuStreamCreate(out, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
            return out.get(ValueLayout.ADDRESS, 0).address();
        }
    }

    @Override
    public void destroyStream(long stream) {
        bind();
        CU.check(cuStreamDestroy_v2(ptr(stream)), "cuStreamDestroy_v2");
    }

    @Override
    public void synchronizeStream(long stream) {
        bind();
        CU.check(cuStreamSynchronize(ptr(stream)), "cuStreamSynchronize");
    }

    @Override
    public long createEvent(boolean timing) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            CU.check(cuEventCreate(out, timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING), "cuEventCreate");
            return out.get(ValueLayout.ADDRESS, 0).address();
        }
    }

    @Override
    public void destroyEvent(long event) {
        bind();
        CU.check(cuEventDestroy_v2(ptr(event)), "cuEventDestroy_v2");
    }

    @Override
    public void recordEvent(long event, long stream) {
        bind();
        CU.check(cuEventRecord(ptr(event), ptr(stream)), "cuEventRecord");
    }

    @Override
    public void synchronizeEvent(long event) {
        bind();
        CU.check(cuEventSynchronize(ptr(event)), "cuEventSynchronize");
    }

    @Override
    public boolean eventDone(long event) {
        bind();
        int rc = cuEventQuery(ptr(event));
        if (rc == CUDA_ERROR_NOT_READY) return false;
        CU.check(rc, "cuEventQuery");
        return true;
    }

    @Override
    public void streamWaitEvent(long stream, long event) {
        bind();
        CU.check(cuStreamWaitEvent(ptr(stream), ptr(event), 0), "cuStreamWaitEvent");
    }

    @Override
    public float elapsedMillis(long start, long end) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.JAVA_FLOAT);
            CU.check(cuEventElapsedTime_v2(out, ptr(start), ptr(end)), "cuEventElapsedTime_v2");
            return out.get(ValueLayout.JAVA_FLOAT, 0);
        }
    }

    @Override
    public long loadModule(MemorySegment image) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            CU.check(cuModuleLoadData(out, image), "cuModuleLoadData");
            return out.get(ValueLayout.ADDRESS, 0).address();
        }
    }

    @Override
    public void unloadModule(long module) {
        bind();
        CU.check(cuModuleUnload(ptr(module)), "cuModuleUnload");
    }

    @Override
    public Optional<Long> function(long module, String symbol) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            int rc = cuModuleGetFunction(out, ptr(module), arena.allocateFrom(symbol));
            if (rc == 500) return Optional.empty(); // CUDA_ERROR_NOT_FOUND
            CU.check(rc, "cuModuleGetFunction");
            return Optional.of(out.get(ValueLayout.ADDRESS, 0).address());
        }
    }

    @Override
    public void launch(long function, LaunchConfig c, long stream, MemorySegment arguments) {
        bind();
        CU.check(
                cuLaunchKernel(
                        ptr(function),
                        c.gridX(),
                        c.gridY(),
                        c.gridZ(),
                        c.blockX(),
                        c.blockY(),
                        c.blockZ(),
                        c.sharedBytes(),
                        ptr(stream),
                        arguments,
                        MemorySegment.NULL),
                "cuLaunchKernel");
    }

    @Override
    public void beginCapture(long stream) {
        bind();
        // Relaxed: other threads keep allocating and querying while one stream captures; the
        // caching allocator keeps driver allocation out of captured work anyway.
        CU.check(cuStreamBeginCapture_v2(ptr(stream), CU_STREAM_CAPTURE_MODE_RELAXED), "cuStreamBeginCapture_v2");
    }

    @Override
    public long endCapture(long stream) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            CU.check(cuStreamEndCapture(ptr(stream), out), "cuStreamEndCapture");
            return out.get(ValueLayout.ADDRESS, 0).address();
        }
    }

    @Override
    public long instantiateGraph(long graph) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            CU.check(cuGraphInstantiateWithFlags(out, ptr(graph), 0), "cuGraphInstantiateWithFlags");
            return out.get(ValueLayout.ADDRESS, 0).address();
        }
    }

    @Override
    public void launchGraph(long graphExec, long stream) {
        bind();
        CU.check(cuGraphLaunch(ptr(graphExec), ptr(stream)), "cuGraphLaunch");
    }

    @Override
    public void destroyGraph(long graph) {
        bind();
        CU.check(cuGraphDestroy(ptr(graph)), "cuGraphDestroy");
    }

    @Override
    public void destroyGraphExec(long graphExec) {
        bind();
        CU.check(cuGraphExecDestroy(ptr(graphExec)), "cuGraphExecDestroy");
    }

    @Override
    public BlasDriver createBlas(long stream) {
        bind();
        return Cublas.create(this, ptr(stream));
    }

    @Override
    public Optional<DnnDriver> createDnn(long stream) {
        return Optional.empty(); // cuDNN is not bound: our own kernels cover softmax/activations on NVIDIA
    }

    @Override
    public Optional<DeviceTelemetry> telemetry() {
        return nvmlDevice.map(nvml::read);
    }

    @Override
    public void close() {
        CU.check(cuDevicePrimaryCtxRelease_v2(device), "cuDevicePrimaryCtxRelease_v2");
    }
}
