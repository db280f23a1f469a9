package com.llmserve.gpu.cuda;

import static com.llmserve.gpu.cuda.CudaStatus.CU;
import static com.llmserve.gpu.cuda.cuda_h.*;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import com.llmserve.gpu.DeviceArch;
import com.llmserve.gpu.DeviceInfo;
import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.gpu.spi.BlasDriver;
import com.llmserve.gpu.spi.BlasHandle;
import com.llmserve.gpu.spi.DnnDriver;
import com.llmserve.gpu.spi.NativeRuntimeCalls;
import com.llmserve.gpu.spi.RuntimeCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;

/**
 * One NVIDIA device through the driver API and its primary context (the one the CUDA runtime
 * and cuBLAS share), which {@link #bind()} makes current.
 */
final class CudaCalls extends NativeRuntimeCalls {

    private final int ordinal;
    private final int device;
    private final MemorySegment context;
    private final Nvml nvml;
    private final Optional<MemorySegment> nvmlDevice;

    CudaCalls(int ordinal, Nvml nvml) {
        super(SHARED, CU);
        this.ordinal = ordinal;
        this.nvml = nvml;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dev = arena.allocate(ValueLayout.JAVA_INT);
            CU.check(cuDeviceGet(dev, ordinal), "cuDeviceGet");
            this.device = dev.get(ValueLayout.JAVA_INT, 0);
            MemorySegment ctx = arena.allocate(ValueLayout.ADDRESS);
            CU.check(cuDevicePrimaryCtxRetain(ctx, device), "cuDevicePrimaryCtxRetain");
            this.context = ctx.get(ValueLayout.ADDRESS, 0);
        }
        this.nvmlDevice = nvml.device(pciBusId());
    }

    @Override
    public void bind() {
        CU.check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
    }

    @Override
    public DeviceInfo readInfo() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment name = arena.allocate(256);
            CU.check(cuDeviceGetName(name, 256, device), "cuDeviceGetName");
            MemorySegment bytes = arena.allocate(ValueLayout.JAVA_LONG);
            CU.check(cuDeviceTotalMem_v2(bytes, device), "cuDeviceTotalMem_v2");
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
                    pciBusId());
        }
    }

    private int attribute(Arena arena, int attribute) {
        MemorySegment out = arena.allocate(ValueLayout.JAVA_INT);
        CU.check(cuDeviceGetAttribute(out, attribute, device), "cuDeviceGetAttribute");
        return out.get(ValueLayout.JAVA_INT, 0);
    }

    @Override
    public Optional<DeviceTelemetry> telemetry() {
        return nvmlDevice.map(nvml::read);
    }

    private String pciBusId() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pci = arena.allocate(32);
            CU.check(cuDeviceGetPCIBusId(pci, 32, device), "cuDeviceGetPCIBusId");
            return pci.getString(0);
        }
    }

    @Override
    public void release() {
        CU.check(cuDevicePrimaryCtxRelease_v2(device), "cuDevicePrimaryCtxRelease_v2");
    }

    /** {@code cuDeviceCanAccessPeer} between the two CUdevices; 0 for a peer of another runtime. */
    @Override
    public void canAccessPeer(MemorySegment canAccess, RuntimeCalls peer) {
        if (peer instanceof CudaCalls p) {
            CU.check(cuDeviceCanAccessPeer(canAccess, device, p.device), "cuDeviceCanAccessPeer");
        } else {
            canAccess.set(ValueLayout.JAVA_INT, 0, 0);
        }
    }

    /** {@code cuCtxEnablePeerAccess} of the peer's primary context, with this device's bound. */
    @Override
    public boolean enablePeerAccess(RuntimeCalls peer) {
        if (!(peer instanceof CudaCalls p)) {
            throw new IllegalArgumentException("not a CUDA device: " + peer);
        }
        int rc = cuCtxEnablePeerAccess(p.context, 0);
        if (rc == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) return false;
        CU.check(rc, "cuCtxEnablePeerAccess");
        return true;
    }

    @Override
    public void free(long pointer) {
        CU.check(cuMemFree_v2(pointer), "cuMemFree_v2");
    }

    @Override
    public void hostAlloc(MemorySegment pointer, long bytes) {
        CU.check(cuMemAllocHost_v2(pointer, bytes), "cuMemAllocHost_v2");
    }

    /** Each launching thread's CUlaunchConfig, followed by its one attribute. */
    private static final ThreadLocal<MemorySegment> DEPENDENT_LAUNCH = ThreadLocal.withInitial(() -> {
        MemorySegment m = Arena.ofAuto().allocate(CUlaunchConfig.byteSize() + CUlaunchAttribute.byteSize(), 8);
        MemorySegment attribute = m.asSlice(CUlaunchConfig.byteSize());
        attribute.set(ValueLayout.JAVA_INT, 0, CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION);
        attribute.set(ValueLayout.JAVA_INT, CUlaunchAttribute.byteOffset(groupElement("value")), 1);
        m.set(ValueLayout.ADDRESS, CUlaunchConfig.byteOffset(groupElement("attrs")), attribute);
        m.set(ValueLayout.JAVA_INT, CUlaunchConfig.byteOffset(groupElement("numAttrs")), 1);
        return m;
    });

    /** Through cuLaunchKernelEx with programmatic stream serialization allowed. */
    @Override
    protected void launchDependent(
            MemorySegment function, LaunchConfig c, MemorySegment stream, MemorySegment arguments) {
        MemorySegment config = DEPENDENT_LAUNCH.get();
        int[] dims = {c.gridX(), c.gridY(), c.gridZ(), c.blockX(), c.blockY(), c.blockZ(), c.sharedBytes()};
        for (int i = 0; i < dims.length; i++) {
            config.set(ValueLayout.JAVA_INT, 4L * i, dims[i]);
        }
        config.set(ValueLayout.ADDRESS, CUlaunchConfig.byteOffset(groupElement("hStream")), stream);
        CU.check(cuLaunchKernelEx(config, function, arguments, MemorySegment.NULL), "cuLaunchKernelEx");
    }

    @Override
    public void copyHostToDevice(long dst, MemorySegment src, long bytes, MemorySegment stream) {
        CU.check(cuMemcpyHtoDAsync_v2(dst, src, bytes, stream), "cuMemcpyHtoDAsync_v2");
    }

    @Override
    public void copyDeviceToHost(MemorySegment dst, long src, long bytes, MemorySegment stream) {
        CU.check(cuMemcpyDtoHAsync_v2(dst, src, bytes, stream), "cuMemcpyDtoHAsync_v2");
    }

    @Override
    public void copyDeviceToDevice(long dst, long src, long bytes, MemorySegment stream) {
        CU.check(cuMemcpyDtoDAsync_v2(dst, src, bytes, stream), "cuMemcpyDtoDAsync_v2");
    }

    @Override
    public void fill(long dst, byte value, long bytes, MemorySegment stream) {
        CU.check(cuMemsetD8Async(dst, value, bytes, stream), "cuMemsetD8Async");
    }

    @Override
    public void instantiateGraph(MemorySegment graphExec, MemorySegment graph) {
        CU.check(cuGraphInstantiateWithFlags(graphExec, graph, 0), "cuGraphInstantiateWithFlags");
    }

    @Override
    public BlasDriver createBlas(MemorySegment stream) {
        return BlasHandle.create(cublas_api_h.CALLS, CudaStatus.CUBLAS, this::bind, stream);
    }

    /** cuDNN is not bound: the engine's own kernels do softmax and activations on NVIDIA. */
    @Override
    public Optional<DnnDriver> createDnn(MemorySegment stream) {
        return Optional.empty();
    }
}
