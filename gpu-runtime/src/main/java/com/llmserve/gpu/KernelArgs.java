package com.llmserve.gpu;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * A kernel's arguments in declaration order. Both vendors take them as a {@code void*[]} whose
 * entries point at each value; {@link Stream} lays that out in its own scratch memory at launch
 * (the driver copies the values then), so building arguments allocates no native memory.
 *
 * <pre>{@code KernelArgs.of().pointer(a).pointer(b).pointer(out).i32(n)}</pre>
 */
public final class KernelArgs {

    /** More than any of our kernels takes; bounds the per-stream scratch. */
    static final int MAX_ARGS = 32;

    private static final int SLOT = Long.BYTES;

    private final long[] values = new long[MAX_ARGS];
    private final byte[] sizes = new byte[MAX_ARGS];
    private int count;

    private KernelArgs() {}

    public static KernelArgs of() {
        return new KernelArgs();
    }

    /** A device pointer argument ({@code float*}, {@code const uint8_t*}, ...). */
    public KernelArgs pointer(DeviceBuffer buffer) {
        return put(buffer.address(), 8);
    }

    /** A device pointer at a byte offset into a buffer. */
    public KernelArgs pointer(DeviceBuffer buffer, long byteOffset) {
        buffer.checkRange(byteOffset, 0);
        return put(buffer.address() + byteOffset, 8);
    }

    public KernelArgs i32(int value) {
        return put(value, 4);
    }

    public KernelArgs i64(long value) {
        return put(value, 8);
    }

    public KernelArgs f32(float value) {
        return put(Float.floatToRawIntBits(value), 4);
    }

    public int count() {
        return count;
    }

    /** Lays out the pointer array at offset 0 and the values after it; returns the pointer array. */
    MemorySegment writeTo(MemorySegment scratch) {
        long valuesBase = (long) count * SLOT;
        for (int i = 0; i < count; i++) {
            long valueOffset = valuesBase + (long) i * SLOT;
            if (sizes[i] == 4) {
                scratch.set(ValueLayout.JAVA_INT_UNALIGNED, valueOffset, (int) values[i]);
            } else {
                scratch.set(ValueLayout.JAVA_LONG_UNALIGNED, valueOffset, values[i]);
            }
            scratch.set(ValueLayout.ADDRESS_UNALIGNED, (long) i * SLOT, scratch.asSlice(valueOffset));
        }
        return scratch;
    }

    static long scratchBytes() {
        return 2L * MAX_ARGS * SLOT;
    }

    private KernelArgs put(long value, int size) {
        if (count == MAX_ARGS) throw new IllegalArgumentException("more than " + MAX_ARGS + " kernel arguments");
        values[count] = value;
        sizes[count] = (byte) size;
        count++;
        return this;
    }

    @Override
    public String toString() {
        return "KernelArgs" + Arrays.toString(Arrays.copyOf(values, count));
    }
}
