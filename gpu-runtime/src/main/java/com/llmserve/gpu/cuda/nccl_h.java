package com.llmserve.gpu.cuda;

import com.llmserve.gpu.spi.NativeLibrary;
import com.llmserve.gpu.spi.NcclCalls;
import java.lang.foreign.StructLayout;

/**
 * NCCL ({@code nccl.h}): the calls of one process driving several NVIDIA devices, bound by
 * {@link NcclCalls}: version, unique id, communicator creation ({@code ncclCommInitAll},
 * {@code ncclCommInitRank}), groups, all-reduce, destroy, abort, asynchronous errors and error
 * strings.
 *
 * <p>Found at the path {@value #LIBRARY_PROPERTY} (or {@value #LIBRARY_ENV}) names, else by soname:
 * the NVIDIA hosts have NCCL only in a Python environment (the {@code nvidia-nccl-cu13} wheel's
 * {@code <site-packages>/nvidia/nccl/lib/libnccl.so.2}), off the linker's path.
 */
public final class nccl_h {

    private nccl_h() {}

    /** The header these declarations mirror; the binding checks compile against it. */
    public static final String HEADER = "nccl.h";

    /** The system property naming the library's path. */
    public static final String LIBRARY_PROPERTY = "llmserve.gpu.nccl-library";

    /** The environment variable read when {@value #LIBRARY_PROPERTY} is not set. */
    public static final String LIBRARY_ENV = "LLMSERVE_NCCL_LIBRARY";

    /** NCCL 2 (every 2.x has soname {@code libnccl.so.2}), after an explicit path. */
    public static final NativeLibrary LIBRARY =
            NativeLibrary.load(NativeLibrary.withOverride(LIBRARY_PROPERTY, LIBRARY_ENV, "libnccl.so.2"));

    public static final int NCCL_UNIQUE_ID_BYTES = NcclCalls.UNIQUE_ID_BYTES;
    public static final StructLayout ncclUniqueId = NcclCalls.UNIQUE_ID;

    public static final int ncclSuccess = 0;
    public static final int ncclUnhandledCudaError = 1;
    public static final int ncclSystemError = 2;
    public static final int ncclInternalError = 3;
    public static final int ncclInvalidArgument = 4;
    public static final int ncclInvalidUsage = 5;
    public static final int ncclRemoteError = 6;
    public static final int ncclInProgress = 7;
    public static final int ncclFloat16 = 6;
    public static final int ncclFloat32 = 7;
    public static final int ncclBfloat16 = 9;
    public static final int ncclSum = 0;

    /** The calls, by NCCL's names and numbers. */
    public static final NcclCalls CALLS = NcclCalls.bind(
            LIBRARY,
            "nccl",
            "NCCL",
            "set " + LIBRARY_PROPERTY + " or " + LIBRARY_ENV
                    + " to its path, e.g. <site-packages>/nvidia/nccl/lib/libnccl.so.2",
            new NcclCalls.Codes(ncclSuccess, ncclFloat32, ncclFloat16, ncclBfloat16, ncclSum));
}
