package com.llmserve.gpu.spi;

import com.llmserve.gpu.DeviceInfo;
import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.gpu.MemoryInfo;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The device runtime, written once over any vendor's {@link RuntimeCalls}: binds the device
 * before each call, passes the out-parameters and reads them, turns not-ready and not-found
 * answers into values. Handles are the vendor's opaque pointers (or device pointers) as
 * {@code long}; the typed wrappers in {@code com.llmserve.gpu} own them.
 */
public final class DeviceDriver implements AutoCloseable {

    private final RuntimeCalls calls;
    private final DeviceInfo info;

    /** Opens the device the calls are for; on failure gives back what opening it took. */
    public DeviceDriver(RuntimeCalls calls) {
        this.calls = calls;
        try {
            calls.bind();
            this.info = calls.readInfo();
        } catch (RuntimeException e) {
            calls.release();
            throw e;
        }
    }

    public DeviceInfo info() {
        return info;
    }

    public MemoryInfo memoryInfo() {
        calls.bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment free = arena.allocate(ValueLayout.JAVA_LONG);
            MemorySegment total = arena.allocate(ValueLayout.JAVA_LONG);
            calls.memoryInfo(free, total);
            return new MemoryInfo(free.get(ValueLayout.JAVA_LONG, 0), total.get(ValueLayout.JAVA_LONG, 0));
        }
    }

    /**
     * Makes the device current on the calling thread, for a library that works on "the current
     * device" ({@code ncclCommInitRank}); the runtime's own calls bind it themselves.
     */
    public void makeCurrent() {
        calls.bind();
    }

    /** Waits for all work on the device. */
    public void synchronize() {
        calls.bind();
        calls.synchronize();
    }

    // peer access

    /** Whether kernels on this device can access {@code peer}'s memory (false for another runtime's device). */
    public boolean canAccessPeer(DeviceDriver peer) {
        calls.bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment canAccess = arena.allocate(ValueLayout.JAVA_INT);
            calls.canAccessPeer(canAccess, peer.calls);
            return canAccess.get(ValueLayout.JAVA_INT, 0) != 0;
        }
    }

    /**
     * Lets this device's kernels access {@code peer}'s allocations; true when this call enabled it,
     * false when it was enabled already.
     */
    public boolean enablePeerAccess(DeviceDriver peer) {
        calls.bind();
        return calls.enablePeerAccess(peer.calls);
    }

    // memory

    public long malloc(long bytes) {
        return out(p -> calls.malloc(p, bytes));
    }

    public void free(long pointer) {
        calls.bind();
        calls.free(pointer);
    }

    /** Page-locked host memory the device can DMA from and to. */
    public MemorySegment hostAlloc(long bytes) {
        return MemorySegment.ofAddress(out(p -> calls.hostAlloc(p, bytes))).reinterpret(bytes);
    }

    public void hostFree(MemorySegment segment) {
        calls.bind();
        calls.hostFree(MemorySegment.ofAddress(segment.address()));
    }

    public void copyHostToDevice(long dst, MemorySegment src, long bytes, long stream) {
        calls.bind();
        calls.copyHostToDevice(dst, src, bytes, ptr(stream));
    }

    public void copyDeviceToHost(MemorySegment dst, long src, long bytes, long stream) {
        calls.bind();
        calls.copyDeviceToHost(dst, src, bytes, ptr(stream));
    }

    public void copyDeviceToDevice(long dst, long src, long bytes, long stream) {
        calls.bind();
        calls.copyDeviceToDevice(dst, src, bytes, ptr(stream));
    }

    public void fill(long dst, byte value, long bytes, long stream) {
        calls.bind();
        calls.fill(dst, value, bytes, ptr(stream));
    }

    // streams and events

    public long createStream() {
        return out(calls::createStream);
    }

    public void destroyStream(long stream) {
        calls.bind();
        calls.destroyStream(ptr(stream));
    }

    public void synchronizeStream(long stream) {
        calls.bind();
        calls.synchronizeStream(ptr(stream));
    }

    public long createEvent(boolean timing) {
        return out(e -> calls.createEvent(e, timing));
    }

    public void destroyEvent(long event) {
        calls.bind();
        calls.destroyEvent(ptr(event));
    }

    public void recordEvent(long event, long stream) {
        calls.bind();
        calls.recordEvent(ptr(event), ptr(stream));
    }

    public void synchronizeEvent(long event) {
        calls.bind();
        calls.synchronizeEvent(ptr(event));
    }

    /** True when all work before the event's record has finished; never blocks. */
    public boolean eventDone(long event) {
        calls.bind();
        return calls.eventDone(ptr(event));
    }

    public void streamWaitEvent(long stream, long event) {
        calls.bind();
        calls.streamWaitEvent(ptr(stream), ptr(event));
    }

    public float elapsedMillis(long start, long end) {
        calls.bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment millis = arena.allocate(ValueLayout.JAVA_FLOAT);
            calls.elapsedMillis(millis, ptr(start), ptr(end));
            return millis.get(ValueLayout.JAVA_FLOAT, 0);
        }
    }

    // modules and launches

    /** Loads a code object; {@code image} is NUL-terminated so PTX text loads too. */
    public long loadModule(MemorySegment image) {
        return out(m -> calls.loadModule(m, image));
    }

    public void unloadModule(long module) {
        calls.bind();
        calls.unloadModule(ptr(module));
    }

    /** The function handle for an entry point, or empty when the module does not export it. */
    public Optional<Long> function(long module, String symbol) {
        calls.bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment f = arena.allocate(ValueLayout.ADDRESS);
            return calls.function(f, ptr(module), arena.allocateFrom(symbol))
                    ? Optional.of(f.get(ValueLayout.ADDRESS, 0).address())
                    : Optional.empty();
        }
    }

    /** Launches with {@code arguments} laid out as a {@code void*[]} of pointers to each argument's value. */
    public void launch(long function, LaunchConfig config, long stream, MemorySegment arguments) {
        calls.bind();
        calls.launch(ptr(function), config, ptr(stream), arguments);
    }

    // graphs

    public void beginCapture(long stream) {
        calls.bind();
        calls.beginCapture(ptr(stream));
    }

    /** Ends capture and returns the captured graph. */
    public long endCapture(long stream) {
        return out(g -> calls.endCapture(ptr(stream), g));
    }

    public long instantiateGraph(long graph) {
        return out(e -> calls.instantiateGraph(e, ptr(graph)));
    }

    public void launchGraph(long graphExec, long stream) {
        calls.bind();
        calls.launchGraph(ptr(graphExec), ptr(stream));
    }

    public void destroyGraph(long graph) {
        calls.bind();
        calls.destroyGraph(ptr(graph));
    }

    public void destroyGraphExec(long graphExec) {
        calls.bind();
        calls.destroyGraphExec(ptr(graphExec));
    }

    // libraries bound to a stream

    public BlasDriver createBlas(long stream) {
        calls.bind();
        return calls.createBlas(ptr(stream));
    }

    /** The DNN library (MIOpen) bound to a stream; empty where the backend has none. */
    public Optional<DnnDriver> createDnn(long stream) {
        calls.bind();
        return calls.createDnn(ptr(stream));
    }

    /** Management-library reading (NVML, rocm-smi); empty when that library is unavailable. */
    public Optional<DeviceTelemetry> telemetry() {
        return calls.telemetry();
    }

    /** Releases the device's context; the pool calls this after every stream and buffer is gone. */
    @Override
    public void close() {
        calls.release();
    }

    /** Binds, runs a call that writes a pointer-sized value through its argument, and returns that value. */
    private long out(Consumer<MemorySegment> call) {
        calls.bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            call.accept(out);
            return out.get(ValueLayout.ADDRESS, 0).address();
        }
    }

    private static MemorySegment ptr(long address) {
        return MemorySegment.ofAddress(address);
    }
}
