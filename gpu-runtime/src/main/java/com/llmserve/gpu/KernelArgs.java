package com.llmserve.gpu;

import com.llmserve.kernels.Kernel;
import com.llmserve.kernels.KernelParam;
import com.llmserve.kernels.KernelParam.Kind;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * A kernel's arguments in declaration order, each with its kind. Both vendors take them as a
 * {@code void*[]} whose entries point at each value; {@link Stream} lays that out in its own
 * scratch memory at launch (the driver copies the values then), so building arguments allocates no
 * native memory. Before that, the launch checks them against the kernel's declared parameters
 * ({@link Kernel#params()}), so a value of the wrong width never reaches the device.
 *
 * <pre>{@code KernelArgs.of().pointer(a).pointer(b).pointer(out).i32(n)}</pre>
 */
public final class KernelArgs {

    /** More than any of our kernels takes; bounds the per-stream scratch. */
    static final int MAX_ARGS = 32;

    private static final int SLOT = Long.BYTES;

    private final long[] values = new long[MAX_ARGS];
    private final Kind[] kinds = new Kind[MAX_ARGS];
    private int count;

    private KernelArgs() {}

    public static KernelArgs of() {
        return new KernelArgs();
    }

    /** A device pointer argument ({@code float*}, {@code const uint8_t*}, ...). */
    public KernelArgs pointer(DeviceBuffer buffer) {
        return put(buffer.address(), Kind.POINTER);
    }

    /** A device pointer at a byte offset into a buffer. */
    public KernelArgs pointer(DeviceBuffer buffer, long byteOffset) {
        buffer.checkRange(byteOffset, 0);
        return put(buffer.address() + byteOffset, Kind.POINTER);
    }

    /** A null pointer, for the pointer parameters a kernel treats as absent when null. */
    public KernelArgs nullPointer() {
        return put(0, Kind.POINTER);
    }

    public KernelArgs i32(int value) {
        return put(value, Kind.I32);
    }

    public KernelArgs i64(long value) {
        return put(value, Kind.I64);
    }

    public KernelArgs f32(float value) {
        return put(Float.floatToRawIntBits(value), Kind.F32);
    }

    public int count() {
        return count;
    }

    /**
     * Throws {@link IllegalArgumentException} unless these arguments match {@code kernel}'s declared
     * parameters in number and kind. Runs before every launch, so it allocates nothing unless it
     * throws.
     */
    void check(Kernel kernel) {
        List<KernelParam> params = kernel.params();
        int common = Math.min(count, params.size());
        for (int i = 0; i < common; i++) {
            KernelParam param = params.get(i);
            if (kinds[i] != param.kind()) {
                throw new IllegalArgumentException(kernel.symbol() + ": parameter " + i + " (" + param.name() + ") is "
                        + param.kind() + ", the launch passes " + kinds[i]);
            }
        }
        if (count < params.size()) {
            KernelParam missing = params.get(count);
            throw new IllegalArgumentException(
                    kernel.symbol() + " takes " + params.size() + " arguments, the launch passes " + count
                            + ": parameter " + count + " (" + missing.name() + ", " + missing.kind() + ") is missing");
        }
        if (count > params.size()) {
            throw new IllegalArgumentException(
                    kernel.symbol() + " takes " + params.size() + " arguments, the launch passes " + count
                            + ": argument " + params.size() + " (" + kinds[params.size()] + ") has no parameter");
        }
    }

    /** Lays out the pointer array at offset 0 and the values after it; returns the pointer array. */
    MemorySegment writeTo(MemorySegment scratch) {
        long valuesBase = (long) count * SLOT;
        for (int i = 0; i < count; i++) {
            long valueOffset = valuesBase + (long) i * SLOT;
            if (kinds[i].bytes() == Integer.BYTES) {
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

    private KernelArgs put(long value, Kind kind) {
        if (count == MAX_ARGS) throw new IllegalArgumentException("more than " + MAX_ARGS + " kernel arguments");
        values[count] = value;
        kinds[count] = kind;
        count++;
        return this;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("KernelArgs[");
        for (int i = 0; i < count; i++) {
            s.append(i == 0 ? "" : ", ").append(kinds[i]).append(' ').append(values[i]);
        }
        return s.append(']').toString();
    }
}
