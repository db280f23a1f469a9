package com.llmserve.gpu;

import java.util.Set;

/**
 * A vendor call returned an error status.
 *
 * @see #library() the library that answered ({@code hip}, {@code cuda}, {@code cublas}, ...)
 */
public final class GpuCallException extends GpuException {

    /**
     * Driver statuses after which the context is unusable: CUDA documents these as leaving "the
     * process in an inconsistent state", every later call returning the same error until the
     * process ends; HIP mirrors them (same numbers, same effect). An uncorrectable ECC error and a
     * destroyed context end the context too. Names as the drivers' error-name calls spell them.
     */
    private static final Set<String> CONTEXT_LOST = Set.of(
            "CUDA_ERROR_ECC_UNCORRECTABLE",
            "CUDA_ERROR_ILLEGAL_ADDRESS",
            "CUDA_ERROR_LAUNCH_TIMEOUT",
            "CUDA_ERROR_CONTEXT_IS_DESTROYED",
            "CUDA_ERROR_ASSERT",
            "CUDA_ERROR_HARDWARE_STACK_ERROR",
            "CUDA_ERROR_ILLEGAL_INSTRUCTION",
            "CUDA_ERROR_MISALIGNED_ADDRESS",
            "CUDA_ERROR_INVALID_ADDRESS_SPACE",
            "CUDA_ERROR_INVALID_PC",
            "CUDA_ERROR_LAUNCH_FAILED",
            "hipErrorECCNotCorrectable",
            "hipErrorIllegalAddress",
            "hipErrorLaunchTimeOut",
            "hipErrorContextIsDestroyed",
            "hipErrorAssert",
            "hipErrorLaunchFailure");

    private final String library;
    private final String call;
    private final int code;
    private final String codeName;
    private final String vendorMessage;
    private final boolean outOfMemory;

    public GpuCallException(
            String library, String call, int code, String codeName, String vendorMessage, boolean outOfMemory) {
        super(call + " failed: " + codeName + " (" + code + "): " + vendorMessage);
        this.library = library;
        this.call = call;
        this.code = code;
        this.codeName = codeName;
        this.vendorMessage = vendorMessage;
        this.outOfMemory = outOfMemory;
    }

    /** The library whose status this is: {@code hip}, {@code rocblas}, {@code cuda}, {@code nvml}, ... */
    public String library() {
        return library;
    }

    /** The exported symbol that failed, e.g. {@code cuMemAlloc_v2}. */
    public String call() {
        return call;
    }

    /** The vendor's numeric status. */
    public int code() {
        return code;
    }

    /** The vendor's name for the status, e.g. {@code hipErrorNoDevice}. */
    public String codeName() {
        return codeName;
    }

    /** The vendor's own description of the status. */
    public String vendorMessage() {
        return vendorMessage;
    }

    /** True for the vendor's out-of-memory status, which a caching allocator answers by trimming. */
    public boolean isOutOfMemory() {
        return outOfMemory;
    }

    /**
     * True when the device runtime ({@code cuda} or {@code hip}) reported a sticky error: the
     * context is lost and no call on it can succeed again in this process, so only a restart
     * brings the device back. Library statuses (cuBLAS, rocBLAS, NVML, ...) never are.
     */
    public boolean isContextLost() {
        return (library.equals("cuda") || library.equals("hip")) && CONTEXT_LOST.contains(codeName);
    }
}
