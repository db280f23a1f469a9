package com.llmserve.gpu.spi;

/** A BLAS handle bound to one stream. Column-major, as both libraries are. */
public interface BlasDriver extends AutoCloseable {

    void gemm(Gemm gemm);

    /**
     * True when the handle should be given a device workspace, so no GEMM allocates inside a
     * captured graph (cuBLAS); false when the library manages its own (rocBLAS).
     */
    boolean wantsWorkspace();

    /** Gives the handle a workspace of {@code bytes} at {@code pointer}, owned by the caller. */
    void setWorkspace(long pointer, long bytes);

    @Override
    void close();
}
