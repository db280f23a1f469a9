package com.llmserve.gpu.spi;

import static com.llmserve.gpu.spi.CTypes.C_INT;
import static com.llmserve.gpu.spi.CTypes.C_POINTER;
import static com.llmserve.gpu.spi.CTypes.C_SIZE_T;

import com.llmserve.gpu.BlasType;
import com.llmserve.gpu.GpuCallException;
import com.llmserve.gpu.GpuUnavailableException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link CollectiveCalls} through NCCL or RCCL, which export the same {@code nccl*} symbols with the
 * same C signatures (checked against {@code nccl.h} and {@code rccl/rccl.h}). Bound by the holders
 * {@code cuda.nccl_h} and {@code hip.rccl_h} when they load, so the header checks see every
 * descriptor.
 */
public final class NcclCalls implements CollectiveCalls {

    /** {@code NCCL_UNIQUE_ID_BYTES}, the size of {@code ncclUniqueId} in both headers. */
    public static final int UNIQUE_ID_BYTES = 128;

    /**
     * {@code typedef struct { char internal[128]; } ncclUniqueId;}: passed by value to
     * {@code ncclCommInitRank}. On x86-64 (SysV) a struct over 16 bytes goes in memory on the stack,
     * on aarch64 as a pointer to a caller's copy; FFM's linker does either from this layout.
     */
    public static final StructLayout UNIQUE_ID = MemoryLayout.structLayout(
                    MemoryLayout.sequenceLayout(UNIQUE_ID_BYTES, ValueLayout.JAVA_BYTE)
                            .withName("internal"))
            .withName("ncclUniqueId");

    /** The vendor's numbers (the enums are the same in NCCL 2.29 and RCCL 5.4; the checks prove it per header). */
    public record Codes(int success, int float32, int float16, int bfloat16, int sum) {

        int type(BlasType t) {
            return switch (t) {
                case F32 -> float32;
                case F16 -> float16;
                case BF16 -> bfloat16;
            };
        }
    }

    /** {@code ncclResult_t} names by value (NCCL 2.29; RCCL 5.4 stops at ncclRemoteError). */
    private static final List<String> RESULT_NAMES = List.of(
            "ncclSuccess",
            "ncclUnhandledCudaError",
            "ncclSystemError",
            "ncclInternalError",
            "ncclInvalidArgument",
            "ncclInvalidUsage",
            "ncclRemoteError",
            "ncclInProgress");

    private final NativeLibrary library;
    private final String libraryName;
    private final String displayName;
    private final String override;
    private final Codes codes;
    private final StatusCheck status;
    private final BoundCall getVersion; // (int* version)
    private final BoundCall getUniqueId; // (ncclUniqueId* id)
    private final BoundCall commInitRank; // (ncclComm_t* comm, int nranks, ncclUniqueId id, int rank)
    private final BoundCall commInitAll; // (ncclComm_t* comms, int ndev, const int* devlist)
    private final BoundCall groupStart; // ()
    private final BoundCall groupEnd; // ()
    private final BoundCall allReduce; // (const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t, stream)
    private final BoundCall commDestroy; // (ncclComm_t)
    private final BoundCall commAbort; // (ncclComm_t)
    private final BoundCall commGetAsyncError; // (ncclComm_t, ncclResult_t*)
    private final MethodHandle getErrorString; // const char* (ncclResult_t)

    private NcclCalls(NativeLibrary library, String libraryName, String displayName, String override, Codes codes) {
        this.library = library;
        this.libraryName = libraryName;
        this.displayName = displayName;
        this.override = override;
        this.codes = codes;
        this.getVersion = BoundCall.bind(library, "ncclGetVersion", C_POINTER);
        this.getUniqueId = BoundCall.bind(library, "ncclGetUniqueId", C_POINTER);
        this.commInitRank = BoundCall.bind(library, "ncclCommInitRank", C_POINTER, C_INT, UNIQUE_ID, C_INT);
        this.commInitAll = BoundCall.bind(library, "ncclCommInitAll", C_POINTER, C_INT, C_POINTER);
        this.groupStart = BoundCall.bind(library, "ncclGroupStart");
        this.groupEnd = BoundCall.bind(library, "ncclGroupEnd");
        this.allReduce = BoundCall.bind(
                library, "ncclAllReduce", C_POINTER, C_POINTER, C_SIZE_T, C_INT, C_INT, C_POINTER, C_POINTER);
        this.commDestroy = BoundCall.bind(library, "ncclCommDestroy", C_POINTER);
        this.commAbort = BoundCall.bind(library, "ncclCommAbort", C_POINTER);
        this.commGetAsyncError = BoundCall.bind(library, "ncclCommGetAsyncError", C_POINTER, C_POINTER);
        this.getErrorString = library.downcall("ncclGetErrorString", FunctionDescriptor.of(C_POINTER, C_INT));
        this.status = new StatusCheck(libraryName, new StatusCheck.Decoder() {
            @Override
            public String name(int code) {
                return code >= 0 && code < RESULT_NAMES.size() ? RESULT_NAMES.get(code) : "ncclResult " + code;
            }

            @Override
            public String message(int code) {
                try {
                    return CStrings.read((MemorySegment) getErrorString.invokeExact(code));
                } catch (Throwable t) {
                    throw NativeLibrary.rethrow(t);
                }
            }

            @Override
            public boolean isOutOfMemory(int code) {
                return false; // NCCL reports an allocation failure as ncclSystemError or ncclUnhandledCudaError
            }
        });
    }

    /**
     * Binds the calls from {@code library}.
     *
     * @param libraryName {@code nccl} or {@code rccl}, for errors
     * @param displayName {@code NCCL} or {@code RCCL}, for availability reports
     * @param override how to point at the library explicitly, for the "not found" report
     */
    public static NcclCalls bind(
            NativeLibrary library, String libraryName, String displayName, String override, Codes codes) {
        return new NcclCalls(library, libraryName, displayName, override, codes);
    }

    @Override
    public String library() {
        return libraryName;
    }

    @Override
    public Optional<String> unavailable() {
        if (library.isLoaded()) return Optional.empty();
        return Optional.of(displayName + " not found: " + library.loadFailure().orElse("") + " (" + override + ")");
    }

    private void requireLoaded() {
        unavailable().ifPresent(reason -> {
            throw new GpuUnavailableException(reason);
        });
    }

    @Override
    public String version() {
        requireLoaded();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ValueLayout.JAVA_INT);
            getVersion.call(status, h -> (int) h.invokeExact(out));
            return decodeVersion(out.get(ValueLayout.JAVA_INT, 0));
        }
    }

    /** {@code NCCL_VERSION(X,Y,Z)}: {@code X*1000+Y*100+Z} up to 2.8, {@code X*10000+Y*100+Z} after. */
    public static String decodeVersion(int code) {
        return code >= 10000
                ? (code / 10000) + "." + (code / 100 % 100) + "." + (code % 100)
                : (code / 1000) + "." + (code / 100 % 10) + "." + (code % 100);
    }

    @Override
    public List<MemorySegment> initAll(int[] ordinals) {
        requireLoaded();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment comms = a.allocate(ValueLayout.ADDRESS, ordinals.length);
            MemorySegment devices = a.allocateFrom(ValueLayout.JAVA_INT, ordinals);
            commInitAll.call(status, h -> (int) h.invokeExact(comms, ordinals.length, devices));
            List<MemorySegment> out = new ArrayList<>(ordinals.length);
            for (int i = 0; i < ordinals.length; i++) out.add(comms.getAtIndex(ValueLayout.ADDRESS, i));
            return List.copyOf(out);
        }
    }

    @Override
    public MemorySegment uniqueId() {
        requireLoaded();
        MemorySegment id = Arena.ofAuto().allocate(UNIQUE_ID);
        getUniqueId.call(status, h -> (int) h.invokeExact(id));
        return id;
    }

    @Override
    public MemorySegment initRank(int nranks, MemorySegment uniqueId, int rank) {
        requireLoaded();
        if (uniqueId.byteSize() != UNIQUE_ID_BYTES) {
            throw new IllegalArgumentException(
                    "an ncclUniqueId is " + UNIQUE_ID_BYTES + " bytes, not " + uniqueId.byteSize());
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ValueLayout.ADDRESS);
            commInitRank.call(status, h -> (int) h.invokeExact(out, nranks, uniqueId, rank));
            return out.get(ValueLayout.ADDRESS, 0);
        }
    }

    @Override
    public void groupStart() {
        requireLoaded();
        groupStart.call(status, h -> (int) h.invokeExact());
    }

    @Override
    public void groupEnd() {
        requireLoaded();
        groupEnd.call(status, h -> (int) h.invokeExact());
    }

    @Override
    public void allReduceSum(
            long send, long recv, long count, BlasType type, MemorySegment comm, MemorySegment stream) {
        MemorySegment s = MemorySegment.ofAddress(send);
        MemorySegment r = MemorySegment.ofAddress(recv);
        int t = codes.type(type);
        int op = codes.sum();
        allReduce.call(status, h -> (int) h.invokeExact(s, r, count, t, op, comm, stream));
    }

    @Override
    public Optional<GpuCallException> asyncError(MemorySegment comm) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ValueLayout.JAVA_INT);
            commGetAsyncError.call(status, h -> (int) h.invokeExact(comm, out));
            int rc = out.get(ValueLayout.JAVA_INT, 0);
            return rc == codes.success() ? Optional.empty() : Optional.of(status.error(rc, "ncclCommGetAsyncError"));
        }
    }

    @Override
    public void destroy(MemorySegment comm) {
        commDestroy.call(status, h -> (int) h.invokeExact(comm));
    }

    @Override
    public void abort(MemorySegment comm) {
        commAbort.call(status, h -> (int) h.invokeExact(comm));
    }
}
