package com.llmserve.gpu.spi;

import com.llmserve.gpu.DeviceInfo;
import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.LaunchConfig;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * One vendor's runtime for one device, as {@link DeviceDriver} needs it: each call is the vendor's
 * function for that job, its status checked with the vendor's own name for it (so an error names
 * {@code cuMemAlloc_v2} or {@code hipMalloc}). Out-parameters are segments the caller provides and
 * reads. What every vendor needs around the calls (binding before each, out-parameters) is written
 * once in {@link DeviceDriver}; the calls whose signatures the vendors share, once in
 * {@link NativeRuntimeCalls}. A vendor's adapter holds only what really differs: how a device
 * becomes current, how its properties are read, which copy function or flag it takes, its
 * management library. (Tests implement this interface whole, over host memory.)
 *
 * <p>Handles are the vendor's opaque pointers; device pointers are {@code long}s.
 */
public interface RuntimeCalls {

    /**
     * Makes the device current on the calling thread, before every call: the vendors keep the
     * current device per OS thread, and a virtual thread may resume on another carrier.
     */
    void bind();

    DeviceInfo readInfo();

    /** A reading from the management library (NVML, rocm-smi), when it is installed. */
    Optional<DeviceTelemetry> telemetry();

    /** Gives back what opening the device took (CUDA's primary context); everything else is freed by now. */
    void release();

    /**
     * Writes 1 (an {@code int}) to {@code canAccess} when kernels on this device can read and write
     * {@code peer}'s memory directly (NVLink, XGMI or PCIe peer-to-peer), 0 when not; 0 for a peer of
     * another runtime (another adapter) and, as the vendors answer, for the device itself.
     */
    void canAccessPeer(MemorySegment canAccess, RuntimeCalls peer);

    /**
     * With this device bound, maps {@code peer}'s allocations (present and future) into this
     * device's address space for its kernels: one direction only. Access already enabled is success
     * (false); true when this call enabled it. Throws for a peer of another runtime.
     */
    boolean enablePeerAccess(RuntimeCalls peer);

    void memoryInfo(MemorySegment free, MemorySegment total);

    void synchronize();

    void malloc(MemorySegment pointer, long bytes);

    void free(long pointer);

    /** Page-locked host memory the device can copy from and to. */
    void hostAlloc(MemorySegment pointer, long bytes);

    void hostFree(MemorySegment memory);

    void copyHostToDevice(long dst, MemorySegment src, long bytes, MemorySegment stream);

    void copyDeviceToHost(MemorySegment dst, long src, long bytes, MemorySegment stream);

    void copyDeviceToDevice(long dst, long src, long bytes, MemorySegment stream);

    void fill(long dst, byte value, long bytes, MemorySegment stream);

    /** A stream that does not wait on the legacy default stream (a library might use that one). */
    void createStream(MemorySegment stream);

    void destroyStream(MemorySegment stream);

    void synchronizeStream(MemorySegment stream);

    void createEvent(MemorySegment event, boolean timing);

    void destroyEvent(MemorySegment event);

    void recordEvent(MemorySegment event, MemorySegment stream);

    void synchronizeEvent(MemorySegment event);

    /** True when the work before the event has finished, false while it runs; never blocks. */
    boolean eventDone(MemorySegment event);

    void streamWaitEvent(MemorySegment stream, MemorySegment event);

    void elapsedMillis(MemorySegment millis, MemorySegment start, MemorySegment end);

    void loadModule(MemorySegment module, MemorySegment image);

    void unloadModule(MemorySegment module);

    /** Looks up an entry point; false when the module does not export it. */
    boolean function(MemorySegment function, MemorySegment module, MemorySegment symbol);

    void launch(MemorySegment function, LaunchConfig config, MemorySegment stream, MemorySegment arguments);

    /** Relaxed capture: other threads keep allocating and querying while one stream captures. */
    void beginCapture(MemorySegment stream);

    void endCapture(MemorySegment stream, MemorySegment graph);

    void instantiateGraph(MemorySegment graphExec, MemorySegment graph);

    void launchGraph(MemorySegment graphExec, MemorySegment stream);

    void destroyGraph(MemorySegment graph);

    void destroyGraphExec(MemorySegment graphExec);

    /** The vendor BLAS bound to {@code stream}. */
    BlasDriver createBlas(MemorySegment stream);

    /** The vendor DNN library bound to {@code stream}; empty where none is bound. */
    Optional<DnnDriver> createDnn(MemorySegment stream);
}
