package com.llmserve.gpu.hip;

import com.llmserve.gpu.spi.NativeLibrary;
import com.llmserve.gpu.spi.NcclCalls;
import java.lang.foreign.StructLayout;

/**
 * RCCL ({@code rccl/rccl.h}), AMD's NCCL: it exports the same {@code nccl*} names with the same C
 * signatures (HIP streams for CUDA ones), bound by {@link NcclCalls} as {@code nccl_h} binds NCCL's.
 * Found at the path {@value #LIBRARY_PROPERTY} (or {@value #LIBRARY_ENV}) names, else by soname.
 */
public final class rccl_h {

    private rccl_h() {}

    /** The header these declarations mirror; the binding checks compile against it. */
    public static final String HEADER = "rccl/rccl.h";

    /** The system property naming the library's path. */
    public static final String LIBRARY_PROPERTY = "llmserve.gpu.rccl-library";

    /** The environment variable read when {@value #LIBRARY_PROPERTY} is not set. */
    public static final String LIBRARY_ENV = "LLMSERVE_RCCL_LIBRARY";

    /** RCCL 1 (ROCm 5 and 6: {@code librccl.so.1}), after an explicit path. */
    public static final NativeLibrary LIBRARY =
            NativeLibrary.load(NativeLibrary.withOverride(LIBRARY_PROPERTY, LIBRARY_ENV, "librccl.so.1"));

    public static final int NCCL_UNIQUE_ID_BYTES = NcclCalls.UNIQUE_ID_BYTES;
    public static final StructLayout ncclUniqueId = NcclCalls.UNIQUE_ID;

    public static final int ncclSuccess = 0;
    public static final int ncclUnhandledCudaError = 1;
    public static final int ncclSystemError = 2;
    public static final int ncclInternalError = 3;
    public static final int ncclInvalidArgument = 4;
    public static final int ncclInvalidUsage = 5;
    public static final int ncclRemoteError = 6;
    public static final int ncclFloat16 = 6;
    public static final int ncclFloat32 = 7;
    public static final int ncclBfloat16 = 9;
    public static final int ncclSum = 0;

    /** The calls, by RCCL's (NCCL's) names and numbers. */
    public static final NcclCalls CALLS = NcclCalls.bind(
            LIBRARY,
            "rccl",
            "RCCL",
            "set " + LIBRARY_PROPERTY + " or " + LIBRARY_ENV + " to its path",
            new NcclCalls.Codes(ncclSuccess, ncclFloat32, ncclFloat16, ncclBfloat16, ncclSum));
}
