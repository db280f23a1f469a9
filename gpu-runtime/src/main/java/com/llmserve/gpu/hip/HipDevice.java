package com.llmserve.gpu.hip;

import static com.llmserve.gpu.hip.HipStatus.HIP;
import static com.llmserve.gpu.hip.hip_runtime_api_h.*;

import com.llmserve.gpu.DeviceArch;
import com.llmserve.gpu.DeviceInfo;
import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.gpu.MemoryInfo;
import com.llmserve.gpu.spi.BlasDriver;
import com.llmserve.gpu.spi.DeviceDriver;
import com.llmserve.gpu.spi.DnnDriver;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;

/**
 * One AMD device. HIP keeps a current device per OS thread, so every call selects ours first
 * (a virtual thread may resume on another carrier between two calls).
 */
final class HipDevice implements DeviceDriver {

    private static final int HIP_ERROR_NOT_FOUND = 500;

    private final int ordinal;
    private final DeviceInfo info;
    private final RocmSmi smi;
    private final Optional<Integer> smiIndex;

    HipDevice(int ordinal, RocmSmi smi) {
        this.ordinal = ordinal;
        this.smi = smi;
        bind();
        this.info = readInfo();
        this.smiIndex = smi.indexOf(info.pciBusId());
    }

    private DeviceInfo readInfo() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = arena.allocate(hipDeviceProp_tR0600);
            HIP.check(hipGetDevicePropertiesR0600(p, ordinal), "hipGetDevicePropertiesR0600");
            MemorySegment pci = arena.allocate(32);
            HIP.check(hipDeviceGetPCIBusId(pci, 32, ordinal), "hipDeviceGetPCIBusId");
            return new DeviceInfo(
                    ordinal,
                    p.getString(offset("name")),
                    DeviceArch.ofGcnArchName(p.getString(offset("gcnArchName"))),
                    p.get(ValueLayout.JAVA_LONG, offset("totalGlobalMem")),
                    p.get(ValueLayout.JAVA_INT, offset("warpSize")),
                    p.get(ValueLayout.JAVA_INT, offset("multiProcessorCount")),
                    p.get(ValueLayout.JAVA_INT, offset("maxThreadsPerBlock")),
                    p.get(ValueLayout.JAVA_LONG, offset("sharedMemPerBlock")),
                    pci.getString(0).toLowerCase(java.util.Locale.ROOT));
        }
    }

    private static long offset(String member) {
        return hipDeviceProp_tR0600.byteOffset(MemoryLayout.PathElement.groupElement(member));
    }

    private void bind() {
        HIP.check(hipSetDevice(ordinal), "hipSetDevice");
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
            HIP.check(hipMemGetInfo(free, total), "hipMemGetInfo");
            return new MemoryInfo(free.get(ValueLayout.JAVA_LONG, 0), total.get(ValueLayout.JAVA_LONG, 0));
        }
    }

    @Override
    public void synchronize() {
        bind();
        HIP.check(hipDeviceSynchronize(), "hipDeviceSynchronize");
    }

    @Override
    public long malloc(long bytes) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            HIP.check(hipMalloc(out, bytes), "hipMalloc");
            return out.get(ValueLayout.ADDRESS, 0).address();
        }
    }

    @Override
    public void free(long pointer) {
        bind();
        HIP.check(hipFree(ptr(pointer)), "hipFree");
    }

    @Override
    public MemorySegment hostAlloc(long bytes) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            HIP.check(hipHostMalloc(out, bytes, hipHostMallocDefault), "hipHostMalloc");
            return out.get(ValueLayout.ADDRESS, 0).reinterpret(bytes);
        }
    }

    @Override
    public void hostFree(MemorySegment segment) {
        bind();
        HIP.check(hipHostFree(ptr(segment.address())), "hipHostFree");
    }

    @Override
    public void copyHostToDevice(long dst, MemorySegment src, long bytes, long stream) {
        bind();
        HIP.check(hipMemcpyAsync(ptr(dst), src, bytes, hipMemcpyHostToDevice, ptr(stream)), "hipMemcpyAsync");
    }

    @Override
    public void copyDeviceToHost(MemorySegment dst, long src, long bytes, long stream) {
        bind();
        HIP.check(hipMemcpyAsync(dst, ptr(src), bytes, hipMemcpyDeviceToHost, ptr(stream)), "hipMemcpyAsync");
    }

    @Override
    public void copyDeviceToDevice(long dst, long src, long bytes, long stream) {
        bind();
        HIP.check(hipMemcpyAsync(ptr(dst), ptr(src), bytes, hipMemcpyDeviceToDevice, ptr(stream)), "hipMemcpyAsync");
    }

    @Override
    public void fill(long dst, byte value, long bytes, long stream) {
        bind();
        HIP.check(hipMemsetAsync(ptr(dst), Byte.toUnsignedInt(value), bytes, ptr(stream)), "hipMemsetAsync");
    }

    @Override
    public long createStream() {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            HIP.check(hipStreamCreateWithFlags(out, hipStreamNonBlocking), "hipStreamCreateWithFlags");
            return out.get(ValueLayout.ADDRESS, 0).address();
        }
    }

    @Override
    public void destroyStream(long stream) {
        bind();
        HIP.check(hipStreamDestroy(ptr(stream)), "hipStreamDestroy");
    }

    @Override
    public void synchronizeStream(long stream) {
        bind();
        HIP.check(hipStreamSynchronize(ptr(stream)), "hipStreamSynchronize");
    }

    @Override
    public long createEvent(boolean timing) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            HIP.check(
                    hipEventCreateWithFlags(out, timing ? hipEventDefault : hipEventDisableTiming),
                    "hipEventCreateWithFlags");
            return out.get(ValueLayout.ADDRESS, 0).address();
        }
    }

    @Override
    public void destroyEvent(long event) {
        bind();
        HIP.check(hipEventDestroy(ptr(event)), "hipEventDestroy");
    }

    @Override
    public void recordEvent(long event, long stream) {
        bind();
        HIP.check(hipEventRecord(ptr(event), ptr(stream)), "hipEventRecord");
    }

    @Override
    public void synchronizeEvent(long event) {
        bind();
        HIP.check(hipEventSynchronize(ptr(event)), "hipEventSynchronize");
    }

    @Override
    public boolean eventDone(long event) {
        bind();
        int rc = hipEventQuery(ptr(event));
        if (rc == hipErrorNotReady) return false;
        HIP.check(rc, "hipEventQuery");
        return true;
    }

    @Override
    public void streamWaitEvent(long stream, long event) {
        bind();
        HIP.check(hipStreamWaitEvent(ptr(stream), ptr(event), 0), "hipStreamWaitEvent");
    }

    @Override
    public float elapsedMillis(long start, long end) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.JAVA_FLOAT);
            HIP.check(hipEventElapsedTime(out, ptr(start), ptr(end)), "hipEventElapsedTime");
            return out.get(ValueLayout.JAVA_FLOAT, 0);
        }
    }

    @Override
    public long loadModule(MemorySegment image) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            HIP.check(hipModuleLoadData(out, image), "hipModuleLoadData");
            return out.get(ValueLayout.ADDRESS, 0).address();
        }
    }

    @Override
    public void unloadModule(long module) {
        bind();
        HIP.check(hipModuleUnload(ptr(module)), "hipModuleUnload");
    }

    @Override
    public Optional<Long> function(long module, String symbol) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            int rc = hipModuleGetFunction(out, ptr(module), arena.allocateFrom(symbol));
            if (rc == HIP_ERROR_NOT_FOUND) return Optional.empty();
            HIP.check(rc, "hipModuleGetFunction");
            return Optional.of(out.get(ValueLayout.ADDRESS, 0).address());
        }
    }

    @Override
    public void launch(long function, LaunchConfig c, long stream, MemorySegment arguments) {
        bind();
        HIP.check(
                hipModuleLaunchKernel(
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
                "hipModuleLaunchKernel");
    }

    @Override
    public void beginCapture(long stream) {
        bind();
        HIP.check(hipStreamBeginCapture(ptr(stream), hipStreamCaptureModeRelaxed), "hipStreamBeginCapture");
    }

    @Override
    public long endCapture(long stream) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            HIP.check(hipStreamEndCapture(ptr(stream), out), "hipStreamEndCapture");
            return out.get(ValueLayout.ADDRESS, 0).address();
        }
    }

    @Override
    public long instantiateGraph(long graph) {
        bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            HIP.check(
                    hipGraphInstantiate(out, ptr(graph), MemorySegment.NULL, MemorySegment.NULL, 0),
                    "hipGraphInstantiate");
            return out.get(ValueLayout.ADDRESS, 0).address();
        }
    }

    @Override
    public void launchGraph(long graphExec, long stream) {
        bind();
        HIP.check(hipGraphLaunch(ptr(graphExec), ptr(stream)), "hipGraphLaunch");
    }

    @Override
    public void destroyGraph(long graph) {
        bind();
        HIP.check(hipGraphDestroy(ptr(graph)), "hipGraphDestroy");
    }

    @Override
    public void destroyGraphExec(long graphExec) {
        bind();
        HIP.check(hipGraphExecDestroy(ptr(graphExec)), "hipGraphExecDestroy");
    }

    @Override
    public BlasDriver createBlas(long stream) {
        bind();
        return Rocblas.create(this::selectForLibraryCall, ptr(stream));
    }

    @Override
    public Optional<DnnDriver> createDnn(long stream) {
        if (!miopen_h.LIBRARY.isLoaded()) return Optional.empty();
        bind();
        return Optional.of(Miopen.create(this::selectForLibraryCall, ptr(stream)));
    }

    @Override
    public Optional<DeviceTelemetry> telemetry() {
        return smiIndex.map(smi::read);
    }

    /** rocBLAS and MIOpen allocate on the current device: they select it through this before each call. */
    void selectForLibraryCall() {
        bind();
    }

    @Override
    public void close() {
        // HIP has no per-device context to release; everything the device owned is freed by now.
    }
}
