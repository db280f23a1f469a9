package com.llmserve.gpu.hip;

import static com.llmserve.gpu.hip.HipStatus.HIP;
import static com.llmserve.gpu.hip.hip_runtime_api_h.*;

import com.llmserve.gpu.DeviceArch;
import com.llmserve.gpu.DeviceInfo;
import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.spi.BlasDriver;
import com.llmserve.gpu.spi.BlasHandle;
import com.llmserve.gpu.spi.DnnDriver;
import com.llmserve.gpu.spi.NativeRuntimeCalls;
import com.llmserve.gpu.spi.RuntimeCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;
import java.util.Optional;

/**
 * One AMD device through the HIP runtime, which {@link #bind()} selects (HIP has no context to
 * retain). Its properties come from {@code hipDeviceProp_t}; copies take a kind.
 */
final class HipCalls extends NativeRuntimeCalls {

    private final int ordinal;
    private final RocmSmi smi;
    private final Optional<Integer> smiIndex;

    HipCalls(int ordinal, RocmSmi smi) {
        super(SHARED, HIP);
        this.ordinal = ordinal;
        this.smi = smi;
        this.smiIndex = smi.indexOf(pciBusId());
    }

    @Override
    public void bind() {
        HIP.check(hipSetDevice(ordinal), "hipSetDevice");
    }

    @Override
    public DeviceInfo readInfo() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = arena.allocate(hipDeviceProp_tR0600);
            HIP.check(hipGetDevicePropertiesR0600(p, ordinal), "hipGetDevicePropertiesR0600");
            return new DeviceInfo(
                    ordinal,
                    p.getString(offset("name")),
                    DeviceArch.ofGcnArchName(p.getString(offset("gcnArchName"))),
                    p.get(ValueLayout.JAVA_LONG, offset("totalGlobalMem")),
                    p.get(ValueLayout.JAVA_INT, offset("warpSize")),
                    p.get(ValueLayout.JAVA_INT, offset("multiProcessorCount")),
                    p.get(ValueLayout.JAVA_INT, offset("maxThreadsPerBlock")),
                    p.get(ValueLayout.JAVA_LONG, offset("sharedMemPerBlock")),
                    pciBusId());
        }
    }

    private static long offset(String member) {
        return hipDeviceProp_tR0600.byteOffset(MemoryLayout.PathElement.groupElement(member));
    }

    private String pciBusId() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pci = arena.allocate(32);
            HIP.check(hipDeviceGetPCIBusId(pci, 32, ordinal), "hipDeviceGetPCIBusId");
            return pci.getString(0).toLowerCase(Locale.ROOT);
        }
    }

    @Override
    public Optional<DeviceTelemetry> telemetry() {
        return smiIndex.map(smi::read);
    }

    @Override
    public void release() {
        // no per-device context; everything the device owned is freed by now
    }

    /** {@code hipDeviceCanAccessPeer} between the two ordinals; 0 for a peer of another runtime. */
    @Override
    public void canAccessPeer(MemorySegment canAccess, RuntimeCalls peer) {
        if (peer instanceof HipCalls p) {
            HIP.check(hipDeviceCanAccessPeer(canAccess, ordinal, p.ordinal), "hipDeviceCanAccessPeer");
        } else {
            canAccess.set(ValueLayout.JAVA_INT, 0, 0);
        }
    }

    /** {@code hipDeviceEnablePeerAccess} of the peer's ordinal, with this device current. */
    @Override
    public boolean enablePeerAccess(RuntimeCalls peer) {
        if (!(peer instanceof HipCalls p)) {
            throw new IllegalArgumentException("not a HIP device: " + peer);
        }
        int rc = hipDeviceEnablePeerAccess(p.ordinal, 0);
        if (rc == hipErrorPeerAccessAlreadyEnabled) return false;
        HIP.check(rc, "hipDeviceEnablePeerAccess");
        return true;
    }

    @Override
    public void free(long pointer) {
        HIP.check(hipFree(MemorySegment.ofAddress(pointer)), "hipFree");
    }

    @Override
    public void hostAlloc(MemorySegment pointer, long bytes) {
        HIP.check(hipHostMalloc(pointer, bytes, hipHostMallocDefault), "hipHostMalloc");
    }

    @Override
    public void copyHostToDevice(long dst, MemorySegment src, long bytes, MemorySegment stream) {
        HIP.check(
                hipMemcpyAsync(MemorySegment.ofAddress(dst), src, bytes, hipMemcpyHostToDevice, stream),
                "hipMemcpyAsync");
    }

    @Override
    public void copyDeviceToHost(MemorySegment dst, long src, long bytes, MemorySegment stream) {
        HIP.check(
                hipMemcpyAsync(dst, MemorySegment.ofAddress(src), bytes, hipMemcpyDeviceToHost, stream),
                "hipMemcpyAsync");
    }

    @Override
    public void copyDeviceToDevice(long dst, long src, long bytes, MemorySegment stream) {
        HIP.check(
                hipMemcpyAsync(
                        MemorySegment.ofAddress(dst),
                        MemorySegment.ofAddress(src),
                        bytes,
                        hipMemcpyDeviceToDevice,
                        stream),
                "hipMemcpyAsync");
    }

    @Override
    public void fill(long dst, byte value, long bytes, MemorySegment stream) {
        HIP.check(
                hipMemsetAsync(MemorySegment.ofAddress(dst), Byte.toUnsignedInt(value), bytes, stream),
                "hipMemsetAsync");
    }

    @Override
    public void instantiateGraph(MemorySegment graphExec, MemorySegment graph) {
        HIP.check(
                hipGraphInstantiate(graphExec, graph, MemorySegment.NULL, MemorySegment.NULL, 0),
                "hipGraphInstantiate");
    }

    /** rocBLAS and MIOpen allocate on the current device: they bind it before each call. */
    @Override
    public BlasDriver createBlas(MemorySegment stream) {
        return BlasHandle.create(rocblas_h.CALLS, HipStatus.ROCBLAS, this::bind, stream);
    }

    @Override
    public Optional<DnnDriver> createDnn(MemorySegment stream) {
        if (!miopen_h.LIBRARY.isLoaded()) {
            return Optional.empty();
        }
        return Optional.of(Miopen.create(this::bind, stream));
    }
}
