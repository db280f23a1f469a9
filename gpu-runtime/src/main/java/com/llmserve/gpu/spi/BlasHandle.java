package com.llmserve.gpu.spi;

import com.llmserve.gpu.GpuUnavailableException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A BLAS handle bound to one stream, over any vendor's {@link BlasCalls}; alpha and beta live in
 * its own host memory. The device is made current before each call: the libraries allocate on the
 * current device.
 */
public final class BlasHandle implements BlasDriver {

    private final BlasCalls calls;
    private final StatusCheck status;
    private final Runnable bind;
    private final MemorySegment handle;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment alpha = arena.allocate(ValueLayout.JAVA_FLOAT);
    private final MemorySegment beta = arena.allocate(ValueLayout.JAVA_FLOAT);

    private BlasHandle(BlasCalls calls, StatusCheck status, Runnable bind, MemorySegment handle) {
        this.calls = calls;
        this.status = status;
        this.bind = bind;
        this.handle = handle;
    }

    /**
     * Creates a handle on the device {@code bind} makes current and binds it to {@code stream}.
     *
     * @throws GpuUnavailableException when the vendor's BLAS library is not installed
     */
    public static BlasHandle create(BlasCalls calls, StatusCheck status, Runnable bind, MemorySegment stream) {
        if (!calls.library.isLoaded()) {
            throw new GpuUnavailableException(status.library() + " not loaded: "
                    + calls.library.loadFailure().orElse(""));
        }
        bind.run();
        MemorySegment handle;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ValueLayout.ADDRESS);
            calls.create.call(status, h -> (int) h.invokeExact(out));
            handle = out.get(ValueLayout.ADDRESS, 0);
        }
        try {
            calls.setStream.call(status, h -> (int) h.invokeExact(handle, stream));
        } catch (RuntimeException e) {
            calls.destroy.call(status, h -> (int) h.invokeExact(handle));
            throw e;
        }
        return new BlasHandle(calls, status, bind, handle);
    }

    @Override
    public boolean wantsWorkspace() {
        return calls.setWorkspace.isPresent();
    }

    @Override
    public void setWorkspace(long pointer, long bytes) {
        BoundCall call = calls.setWorkspace.orElseThrow(
                () -> new UnsupportedOperationException(status.library() + " manages its own workspace"));
        bind.run();
        MemorySegment workspace = MemorySegment.ofAddress(pointer);
        call.call(status, h -> (int) h.invokeExact(handle, workspace, bytes));
    }

    @Override
    public void gemm(Gemm g) {
        bind.run();
        alpha.set(ValueLayout.JAVA_FLOAT, 0, g.alpha());
        beta.set(ValueLayout.JAVA_FLOAT, 0, g.beta());
        BlasCalls.Codes codes = calls.codes;
        calls.gemm.call(status, h -> (int) h.invokeExact(
                handle,
                codes.op(g.transA()),
                codes.op(g.transB()),
                g.m(),
                g.n(),
                g.k(),
                alpha,
                MemorySegment.ofAddress(g.a()),
                codes.type(g.aType()),
                g.lda(),
                MemorySegment.ofAddress(g.b()),
                codes.type(g.bType()),
                g.ldb(),
                beta,
                MemorySegment.ofAddress(g.c()),
                codes.type(g.cType()),
                g.ldc(),
                codes.compute32F(),
                codes.algorithmDefault()));
    }

    @Override
    public void close() {
        try {
            bind.run();
            calls.destroy.call(status, h -> (int) h.invokeExact(handle));
        } finally {
            arena.close();
        }
    }
}
