package com.llmserve.gpu;

import com.llmserve.gpu.cuda.nccl_h;
import com.llmserve.gpu.hip.rccl_h;
import com.llmserve.gpu.spi.CollectiveCalls;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;

/**
 * One communicator per device of a pool, for collectives across them: NCCL on NVIDIA, RCCL on
 * AMD, in one process that drives every device (as the engine will, one shard per device).
 * Rank {@code i} is the {@code i}-th device given.
 *
 * <pre>{@code
 * try (Collectives comms = Collectives.open(pool);
 *         Collectives.Group group = comms.group()) {
 *     for (int rank = 0; rank < comms.size(); rank++)
 *         comms.allReduceSum(rank, partial[rank], 0, n, BlasType.F32, stream[rank]);
 * } // the group's close launches the queued all-reduces, each ordered on its rank's stream
 * }</pre>
 *
 * <p>Not thread-safe: one thread issues every rank's calls, inside a {@link #group()} when there
 * are several ranks (a single call would wait for ranks the same thread has not issued yet). A
 * failed call marks the communicators failed: {@link #close()} then aborts them instead of
 * destroying them, as NCCL asks after an error.
 */
public final class Collectives implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Collectives.class.getName());

    /** How the communicators are created. */
    public enum Init {
        /** {@code ncclCommInitAll} over the devices' ordinals: the single-process call. */
        ALL,
        /**
         * {@code ncclGetUniqueId}, then {@code ncclCommInitRank} per device (made current first) in
         * one group: the multi-process form, here within one process.
         */
        UNIQUE_ID
    }

    private final CollectiveCalls calls;
    private final List<Device> devices;
    private final List<MemorySegment> comms;
    private final String version;
    private int groupDepth;
    private Thread groupThread;
    private boolean failed;
    private boolean closed;

    private Collectives(CollectiveCalls calls, List<Device> devices, List<MemorySegment> comms, String version) {
        this.calls = calls;
        this.devices = devices;
        this.comms = comms;
        this.version = version;
    }

    /** The collective library of {@code vendor}'s devices: NCCL for NVIDIA, RCCL for AMD. */
    static CollectiveCalls calls(Vendor vendor) {
        return switch (vendor) {
            case NVIDIA -> nccl_h.CALLS;
            case AMD -> rccl_h.CALLS;
        };
    }

    /**
     * Whether collectives can be opened over {@code pool}'s devices: the library's name and version,
     * or why not ("NCCL not found: ..."), for logs and health. Never throws.
     */
    public static BackendStatus status(DevicePool pool) {
        if (pool.vendor().isEmpty()) return new BackendStatus("collectives", false, "no GPU");
        return status(calls(pool.vendor().get()));
    }

    static BackendStatus status(CollectiveCalls calls) {
        Optional<String> unavailable = calls.unavailable();
        if (unavailable.isPresent()) return new BackendStatus(calls.library(), false, unavailable.get());
        try {
            return new BackendStatus(
                    calls.library(), true, calls.library().toUpperCase(java.util.Locale.ROOT) + " " + calls.version());
        } catch (GpuException e) {
            return new BackendStatus(calls.library(), false, e.getMessage());
        }
    }

    /** Communicators over every device of {@code pool}, created with {@code ncclCommInitAll}. */
    public static Collectives open(DevicePool pool) {
        return open(pool, Init.ALL);
    }

    /**
     * Communicators over every device of {@code pool}.
     *
     * @throws GpuUnavailableException when the pool has no device or the vendor's collective
     *     library is not installed (the message says which and how to point at it)
     * @throws GpuCallException when the library refuses (its status and message)
     */
    public static Collectives open(DevicePool pool, Init init) {
        if (pool.isEmpty()) throw new GpuUnavailableException("no GPU for collectives: " + pool.statuses());
        return open(pool.devices(), calls(pool.vendor().orElseThrow()), init);
    }

    /**
     * Communicators over {@code devices} (distinct, of one pool), rank {@code i} on the
     * {@code i}-th, created with {@code ncclCommInitAll}: a tensor-parallel model's shards.
     *
     * @throws GpuUnavailableException when the vendor's collective library is not installed
     * @throws GpuCallException when the library refuses
     */
    public static Collectives open(List<Device> devices) {
        if (devices.isEmpty()) throw new IllegalArgumentException("no devices");
        Vendor vendor = devices.getFirst().info().vendor();
        if (devices.stream().anyMatch(d -> d.info().vendor() != vendor)) {
            throw new IllegalArgumentException("devices of two vendors: " + devices);
        }
        return open(devices, calls(vendor), Init.ALL);
    }

    /** Communicators over {@code devices} (distinct, one runtime) through {@code calls}. */
    static Collectives open(List<Device> devices, CollectiveCalls calls, Init init) {
        if (devices.isEmpty()) throw new IllegalArgumentException("no devices");
        if (new HashSet<>(devices).size() != devices.size()) {
            throw new IllegalArgumentException("a device appears twice: " + devices);
        }
        calls.unavailable().ifPresent(reason -> {
            throw new GpuUnavailableException(reason);
        });
        String version = calls.version();
        List<MemorySegment> comms =
                switch (init) {
                    case ALL ->
                        calls.initAll(devices.stream()
                                .mapToInt(d -> d.info().ordinal())
                                .toArray());
                    case UNIQUE_ID -> initByRank(devices, calls);
                };
        Collectives c = new Collectives(calls, List.copyOf(devices), List.copyOf(comms), version);
        LOG.log(
                System.Logger.Level.INFO,
                "{0} {1}: {2} communicator(s) over {3}",
                calls.library(),
                version,
                comms.size(),
                devices);
        return c;
    }

    private static List<MemorySegment> initByRank(List<Device> devices, CollectiveCalls calls) {
        MemorySegment id = calls.uniqueId();
        List<MemorySegment> comms = new ArrayList<>();
        calls.groupStart();
        RuntimeException failure = null;
        try {
            for (int rank = 0; rank < devices.size(); rank++) {
                devices.get(rank).driver().makeCurrent();
                comms.add(calls.initRank(devices.size(), id, rank));
            }
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            calls.groupEnd();
        } catch (RuntimeException e) {
            if (failure == null) failure = e;
            else failure.addSuppressed(e);
        }
        if (failure != null) {
            for (MemorySegment comm : comms) {
                try {
                    if (!comm.equals(MemorySegment.NULL)) calls.abort(comm);
                } catch (RuntimeException e) {
                    failure.addSuppressed(e);
                }
            }
            throw failure;
        }
        return comms;
    }

    /** The number of ranks (devices). */
    public int size() {
        return devices.size();
    }

    /** The device of {@code rank}. */
    public Device device(int rank) {
        return devices.get(rank);
    }

    /** {@code nccl} or {@code rccl}. */
    public String library() {
        return calls.library();
    }

    /** The library's version, e.g. {@code 2.29.7}. */
    public String version() {
        return version;
    }

    /**
     * Starts a group ({@code ncclGroupStart}): the collectives issued until its {@link Group#close()}
     * ({@code ncclGroupEnd}) are launched together. Groups nest; only the outermost close launches.
     */
    public Group group() {
        checkOpen();
        if (groupDepth > 0 && groupThread != Thread.currentThread()) {
            throw new IllegalStateException("a group is open on " + groupThread + ": one thread drives every rank");
        }
        run(calls::groupStart);
        if (groupDepth++ == 0) groupThread = Thread.currentThread();
        return new Group();
    }

    /** An open group; closing it launches what it queued. */
    public final class Group implements AutoCloseable {

        private final Thread owner = Thread.currentThread();
        private boolean ended;

        private Group() {}

        @Override
        public void close() {
            if (ended) return;
            if (Thread.currentThread() != owner) {
                // NCCL's group state is per thread: ending it elsewhere would end another group
                throw new IllegalStateException("a group is closed by the thread that opened it, " + owner);
            }
            ended = true;
            if (--groupDepth == 0) groupThread = null;
            run(calls::groupEnd);
        }
    }

    /**
     * Sums {@code count} elements of {@code type} at {@code offsetBytes} of {@code buffer} across
     * every rank, in place (each rank's buffer ends with the sum), ordered on {@code stream}: queued
     * now, launched when the enclosing group closes. {@code buffer} and {@code stream} must belong to
     * the rank's device.
     *
     * @throws IllegalStateException with several ranks and no group open on this thread
     */
    public void allReduceSum(
            int rank, DeviceBuffer buffer, long offsetBytes, long count, BlasType type, Stream stream) {
        checkOpen();
        Device device = devices.get(rank);
        if (buffer.device() != device || stream.device() != device) {
            throw new IllegalArgumentException("rank " + rank + " is " + device + ", the buffer is on "
                    + buffer.device() + " and the stream on " + stream.device());
        }
        if (count < 0) throw new IllegalArgumentException("count " + count);
        buffer.checkRange(offsetBytes, Math.multiplyExact(count, (long) type.bytes()));
        if (devices.size() > 1 && !(groupDepth > 0 && groupThread == Thread.currentThread())) {
            throw new IllegalStateException("with " + devices.size()
                    + " ranks driven by one thread, each rank's all-reduce must be issued inside group()");
        }
        long address = buffer.address() + offsetBytes;
        MemorySegment comm = comms.get(rank);
        MemorySegment s = MemorySegment.ofAddress(stream.handle());
        run(() -> calls.allReduceSum(address, address, count, type, comm, s));
    }

    /**
     * {@link #allReduceSum(int, DeviceBuffer, long, long, BlasType, Stream)} for every rank in one
     * group: {@code buffers.get(rank)} and {@code streams.get(rank)} of each.
     */
    public void allReduceSum(
            List<DeviceBuffer> buffers, long offsetBytes, long count, BlasType type, List<Stream> streams) {
        if (buffers.size() != size() || streams.size() != size()) {
            throw new IllegalArgumentException(
                    size() + " ranks, " + buffers.size() + " buffers, " + streams.size() + " streams");
        }
        try (Group g = group()) {
            for (int rank = 0; rank < size(); rank++) {
                allReduceSum(rank, buffers.get(rank), offsetBytes, count, type, streams.get(rank));
            }
        }
    }

    /**
     * Throws the first error a communicator met in the background ({@code ncclCommGetAsyncError}),
     * a remote rank's failure say; the communicators are then failed (closing aborts them). Also
     * callable once they failed, to find out why.
     */
    public void checkAsyncErrors() {
        if (closed) throw new IllegalStateException("collectives are closed");
        for (MemorySegment comm : comms) {
            Optional<GpuCallException> error;
            try {
                error = calls.asyncError(comm);
            } catch (RuntimeException e) {
                failed = true;
                throw e;
            }
            if (error.isPresent()) {
                failed = true;
                throw error.get();
            }
        }
    }

    /** True once a call failed: the communicators are only good for {@link #close()}, which aborts them. */
    public boolean failed() {
        return failed;
    }

    /**
     * Destroys every communicator ({@code ncclCommDestroy}, which waits for its queued work), or
     * aborts them ({@code ncclCommAbort}) after a failure. Every communicator is tried even if one
     * fails; the first failure is rethrown. (A failed destroy is not followed by an abort: what a
     * half-destroyed communicator still owns is not documented, and a double free is worse than a
     * leak at shutdown.)
     */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        RuntimeException failure = null;
        for (MemorySegment comm : comms) {
            try {
                if (failed) calls.abort(comm);
                else calls.destroy(comm);
            } catch (RuntimeException e) {
                if (failure == null) failure = e;
                else failure.addSuppressed(e);
            }
        }
        if (failure != null) throw failure;
    }

    private void checkOpen() {
        if (closed) throw new IllegalStateException("collectives are closed");
        if (failed) throw new IllegalStateException("a collective call failed: close (abort) and open again");
    }

    private void run(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            failed = true;
            throw e;
        }
    }

    @Override
    public String toString() {
        return library() + " " + version + " over " + devices;
    }
}
