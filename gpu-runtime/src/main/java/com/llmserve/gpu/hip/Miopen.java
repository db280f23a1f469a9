package com.llmserve.gpu.hip;

import static com.llmserve.gpu.hip.HipStatus.MIOPEN;
import static com.llmserve.gpu.hip.miopen_h.*;

import com.llmserve.gpu.spi.DnnDriver;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A MIOpen handle bound to one stream: created on it ({@code miopenCreateWithStream}) and never
 * moved, as the stream owns it, so {@code miopenSetStream} is not bound. Tensors are described per
 * call as NCHW with the data in N (rows) and C (features): MIOpen's channel-mode softmax then
 * normalises each row. A status MIOpen returns is reported with its {@code miopenGetErrorString}.
 */
final class Miopen implements DnnDriver {

    private final Runnable select;
    private final MemorySegment handle;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment one = arena.allocate(ValueLayout.JAVA_FLOAT);
    private final MemorySegment zero = arena.allocate(ValueLayout.JAVA_FLOAT);

    private Miopen(Runnable select, MemorySegment handle) {
        this.select = select;
        this.handle = handle;
        one.set(ValueLayout.JAVA_FLOAT, 0, 1f);
        zero.set(ValueLayout.JAVA_FLOAT, 0, 0f);
    }

    static Miopen create(Runnable select, MemorySegment stream) {
        select.run();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            MIOPEN.check(miopenCreateWithStream(out, stream), "miopenCreateWithStream");
            return new Miopen(select, out.get(ValueLayout.ADDRESS, 0));
        }
    }

    @Override
    public void softmax(long x, long y, int rows, int cols) {
        select.run();
        MemorySegment desc = tensor(rows, cols);
        try {
            MIOPEN.check(
                    miopenSoftmaxForward_V2(
                            handle,
                            one,
                            desc,
                            MemorySegment.ofAddress(x),
                            zero,
                            desc,
                            MemorySegment.ofAddress(y),
                            MIOPEN_SOFTMAX_ACCURATE,
                            MIOPEN_SOFTMAX_MODE_CHANNEL),
                    "miopenSoftmaxForward_V2");
        } finally {
            MIOPEN.check(miopenDestroyTensorDescriptor(desc), "miopenDestroyTensorDescriptor");
        }
    }

    private static MemorySegment tensor(int rows, int cols) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ValueLayout.ADDRESS);
            MIOPEN.check(miopenCreateTensorDescriptor(out), "miopenCreateTensorDescriptor");
            MemorySegment desc = out.get(ValueLayout.ADDRESS, 0);
            try {
                MIOPEN.check(
                        miopenSet4dTensorDescriptor(desc, miopenFloat, rows, cols, 1, 1),
                        "miopenSet4dTensorDescriptor");
            } catch (RuntimeException e) {
                miopenDestroyTensorDescriptor(desc);
                throw e;
            }
            return desc;
        }
    }

    @Override
    public void close() {
        try {
            select.run();
            MIOPEN.check(miopenDestroy(handle), "miopenDestroy");
        } finally {
            arena.close();
        }
    }
}
