package com.llmserve.gpu;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * A device stream: work submitted to it runs in order, concurrently with other streams. Streams
 * belong to their device's {@link StreamPool} and are used through a {@link StreamLease}, by one
 * thread at a time (the lease's holder); a stream is not thread-safe. Every operation here is
 * asynchronous unless its name says otherwise.
 *
 * <p>The stream owns its BLAS and DNN handles, created on first use and bound to it once, so
 * library work is ordered with our kernels without further calls.
 */
public final class Stream {

    private final Device device;
    private final long handle;
    private final Arena scratchArena = Arena.ofShared();
    private final MemorySegment argScratch;
    private Blas blas;
    private Dnn dnn;
    private boolean dnnProbed;

    Stream(Device device, long handle) {
        this.device = device;
        this.handle = handle;
        this.argScratch = scratchArena.allocate(KernelArgs.scratchBytes(), 16);
    }

    public Device device() {
        return device;
    }

    long handle() {
        return handle;
    }

    /** Stream-scoped device memory: reusable by this stream as soon as it is closed (see {@link CachingAllocator}). */
    public DeviceBuffer allocate(long bytes) {
        return allocateFrom(device.allocator(), bytes);
    }

    DeviceBuffer allocateFrom(CachingAllocator allocator, long bytes) {
        return allocator.allocate(bytes, this);
    }

    /** Copies all of {@code src} (native memory, ideally a {@link PinnedBuffer}) to the start of {@code dst}. */
    public void copyToDevice(MemorySegment src, DeviceBuffer dst) {
        copyToDevice(src, dst, 0);
    }

    public void copyToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset) {
        requireNative(src);
        dst.checkRange(dstOffset, src.byteSize());
        device.driver().copyHostToDevice(dst.address() + dstOffset, src, src.byteSize(), handle);
    }

    /** Copies the first {@code dst.byteSize()} bytes of {@code src} into {@code dst}. */
    public void copyToHost(DeviceBuffer src, MemorySegment dst) {
        copyToHost(src, 0, dst);
    }

    public void copyToHost(DeviceBuffer src, long srcOffset, MemorySegment dst) {
        requireNative(dst);
        src.checkRange(srcOffset, dst.byteSize());
        device.driver().copyDeviceToHost(dst, src.address() + srcOffset, dst.byteSize(), handle);
    }

    public void copy(DeviceBuffer src, DeviceBuffer dst, long bytes) {
        src.checkRange(0, bytes);
        dst.checkRange(0, bytes);
        device.driver().copyDeviceToDevice(dst.address(), src.address(), bytes, handle);
    }

    public void fill(DeviceBuffer dst, byte value) {
        dst.checkRange(0, dst.byteSize());
        device.driver().fill(dst.address(), value, dst.byteSize(), handle);
    }

    /**
     * Launches {@code function} over {@code config}'s grid. The arguments must match the kernel's
     * declared parameters in number and kind ({@link com.llmserve.kernels.Kernel#params()}): a mismatch
     * is an {@link IllegalArgumentException} naming the parameter, before anything reaches the device.
     */
    public void launch(KernelFunction function, LaunchConfig config, KernelArgs args) {
        if (function.device() != device) {
            throw new IllegalArgumentException(function + " belongs to another device than " + device);
        }
        args.check(function.kernel());
        device.driver().launch(function.handle(), config, handle, args.writeTo(argScratch));
    }

    public void record(Event event) {
        device.driver().recordEvent(event.handle(), handle);
    }

    /** Later work on this stream waits for {@code event} (recorded on any stream of the device). */
    public void waitFor(Event event) {
        device.driver().streamWaitEvent(handle, event.handle());
    }

    /** Blocks until everything submitted so far has finished. */
    public void synchronize() {
        device.driver().synchronizeStream(handle);
    }

    /** rocBLAS / cuBLAS bound to this stream. */
    public Blas blas() {
        if (blas == null) blas = Blas.create(this);
        return blas;
    }

    /** MIOpen bound to this stream; empty on backends without a DNN library binding (CUDA). */
    public Optional<Dnn> dnn() {
        if (!dnnProbed) {
            dnn = device.driver().createDnn(handle).map(d -> new Dnn(this, d)).orElse(null);
            dnnProbed = true;
        }
        return Optional.ofNullable(dnn);
    }

    /**
     * Starts recording this stream's work into a graph instead of running it. Close the capture in
     * a finally (try-with-resources) so a failure never leaves the stream capturing.
     */
    public GraphCapture beginCapture() {
        device.driver().beginCapture(handle);
        return new GraphCapture(this);
    }

    void destroy() {
        try {
            if (blas != null) blas.close();
            if (dnn != null) dnn.close();
        } finally {
            device.driver().destroyStream(handle);
            scratchArena.close();
        }
    }

    private static void requireNative(MemorySegment segment) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException(
                    "host side of a device copy must be native memory (Arena or PinnedBuffer), not a heap array");
        }
    }

    @Override
    public String toString() {
        return "stream 0x" + Long.toHexString(handle) + " on " + device;
    }
}
