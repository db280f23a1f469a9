package com.llmserve.gpu.spi;

import com.llmserve.gpu.DeviceInfo;
import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.gpu.MemoryInfo;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * The vendor operations on one device, over raw handles. This interface is where HIP and CUDA
 * differ; everything above it (pools, caches, leases, ownership) is written once. Handles are the
 * vendor's opaque pointers (or {@code CUdeviceptr}s) as {@code long}; the typed wrappers in
 * {@code com.llmserve.gpu} own them.
 *
 * <p>Each call binds the device to the calling OS thread first when the vendor keeps a per-thread
 * current device or context: virtual threads move between carriers, so "bound once" is not a fact
 * the runtime can rely on.
 */
public interface DeviceDriver extends AutoCloseable {

    DeviceInfo info();

    MemoryInfo memoryInfo();

    /** Waits for all work on the device. */
    void synchronize();

    // memory

    long malloc(long bytes);

    void free(long pointer);

    /** Page-locked host memory the device can DMA from and to. */
    MemorySegment hostAlloc(long bytes);

    void hostFree(MemorySegment segment);

    void copyHostToDevice(long dst, MemorySegment src, long bytes, long stream);

    void copyDeviceToHost(MemorySegment dst, long src, long bytes, long stream);

    void copyDeviceToDevice(long dst, long src, long bytes, long stream);

    void fill(long dst, byte value, long bytes, long stream);

    // streams and events

    long createStream();

    void destroyStream(long stream);

    void synchronizeStream(long stream);

    long createEvent(boolean timing);

    void destroyEvent(long event);

    void recordEvent(long event, long stream);

    void synchronizeEvent(long event);

    /** True when all work before the event's record has finished; never blocks. */
    boolean eventDone(long event);

    void streamWaitEvent(long stream, long event);

    float elapsedMillis(long start, long end);

    // modules and launches

    /** Loads a code object; {@code image} is NUL-terminated so PTX text loads too. */
    long loadModule(MemorySegment image);

    void unloadModule(long module);

    /** The function handle for an entry point, or empty when the module does not export it. */
    Optional<Long> function(long module, String symbol);

    /** Launches with {@code arguments} laid out as a {@code void*[]} of pointers to each argument's value. */
    void launch(long function, LaunchConfig config, long stream, MemorySegment arguments);

    // graphs

    void beginCapture(long stream);

    /** Ends capture and returns the captured graph. */
    long endCapture(long stream);

    long instantiateGraph(long graph);

    void launchGraph(long graphExec, long stream);

    void destroyGraph(long graph);

    void destroyGraphExec(long graphExec);

    // libraries bound to a stream

    BlasDriver createBlas(long stream);

    /** The DNN library (MIOpen) bound to a stream; empty where the backend has none. */
    Optional<DnnDriver> createDnn(long stream);

    /** Management-library reading (NVML, rocm-smi); empty when that library is unavailable. */
    Optional<DeviceTelemetry> telemetry();

    /** Releases the device's context; the pool calls this after every stream and buffer is gone. */
    @Override
    void close();
}
