package com.llmserve.gpu.spi;

import com.llmserve.gpu.BlasType;
import com.llmserve.gpu.GpuCallException;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;

/**
 * The collective-communication calls the runtime makes (NCCL on NVIDIA, RCCL on AMD: the same
 * {@code nccl*} API), as {@link com.llmserve.gpu.Collectives} uses them. {@link NcclCalls} makes
 * them through a vendor's library; tests substitute their own. Every method but
 * {@link #unavailable()} and {@link #asyncError} throws {@link GpuCallException} (library
 * {@code nccl} or {@code rccl}) for a failing status.
 */
public interface CollectiveCalls {

    /** {@code nccl} or {@code rccl}: the library's name in errors and reports. */
    String library();

    /** Why the library cannot be used ("NCCL not found: ..."); empty when it loaded. */
    Optional<String> unavailable();

    /** {@code ncclGetVersion}, decoded: {@code "2.29.7"}. */
    String version();

    /** {@code ncclCommInitAll}: one communicator per device ordinal, rank i on {@code ordinals[i]}. */
    List<MemorySegment> initAll(int[] ordinals);

    /** {@code ncclGetUniqueId}: the 128-byte id every rank of one communicator is created with. */
    MemorySegment uniqueId();

    /**
     * {@code ncclCommInitRank} on the calling thread's current device (the caller makes it
     * current); several ranks from one thread need a group around the calls.
     */
    MemorySegment initRank(int nranks, MemorySegment uniqueId, int rank);

    void groupStart();

    /** Launches what the group queued (or reports what failed in it). */
    void groupEnd();

    /** {@code ncclAllReduce(send, recv, count, type, ncclSum, comm, stream)}; in place when send == recv. */
    void allReduceSum(long send, long recv, long count, BlasType type, MemorySegment comm, MemorySegment stream);

    /** {@code ncclCommGetAsyncError}: the error a communicator met in the background, if any. */
    Optional<GpuCallException> asyncError(MemorySegment comm);

    /** {@code ncclCommDestroy}: waits for the communicator's queued work, then frees it. */
    void destroy(MemorySegment comm);

    /** {@code ncclCommAbort}: frees the communicator without waiting, after an error. */
    void abort(MemorySegment comm);
}
