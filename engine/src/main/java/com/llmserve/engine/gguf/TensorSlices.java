package com.llmserve.engine.gguf;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Parts of a 2-D tensor for a tensor-parallel shard: a band of its rows (a view of the file's
 * bytes) or a band of its columns (copied out of each row, in whole quantization blocks).
 */
public final class TensorSlices {

    private TensorSlices() {}

    /** Rows {@code [from, from + count)} of {@code t}: a view, no copy. */
    public static GgufTensor rows(GgufTensor t, long from, long count) {
        if (t.dims() > 2 || from < 0 || count < 1 || from + count > t.rows()) {
            throw new IllegalArgumentException(
                    "rows " + from + " to " + (from + count) + " of " + t + ": out of its " + t.rows() + " rows");
        }
        long rowBytes = t.rowBytes();
        long[] shape = t.dims() == 1 ? new long[] {t.rowLength()} : new long[] {t.rowLength(), count};
        return new GgufTensor(
                t.name(),
                t.type(),
                shape,
                t.offset() + from * rowBytes,
                t.data().asSlice(from * rowBytes, count * rowBytes));
    }

    /**
     * Columns {@code [from, from + count)} of every row of {@code t} (a 1-D tensor: its elements),
     * copied into native memory of their own, freed once nothing refers to the slice (a backend
     * that computes from it keeps it; a GPU's upload copies it and lets it go).
     *
     * @throws IllegalArgumentException when the band does not start and end on the type's blocks,
     *     naming the tensor and the block size
     */
    public static GgufTensor columns(GgufTensor t, long from, long count) {
        int block = t.type().blockSize();
        if (t.dims() > 2 || from < 0 || count < 1 || from + count > t.rowLength()) {
            throw new IllegalArgumentException(
                    "columns " + from + " to " + (from + count) + " of " + t + ": out of its " + t.rowLength());
        }
        if (from % block != 0 || count % block != 0) {
            throw new IllegalArgumentException("columns " + from + " to " + (from + count) + " of " + t + " split its "
                    + t.type() + " blocks of " + block + " values");
        }
        long rowBytes = t.rowBytes();
        long start = t.type().byteSize(from);
        long bytes = t.type().byteSize(count);
        long rows = t.rows();
        MemorySegment out = Arena.ofAuto().allocate(rows * bytes, 64);
        for (long r = 0; r < rows; r++) {
            MemorySegment.copy(
                    t.data(),
                    ValueLayout.JAVA_BYTE,
                    r * rowBytes + start,
                    out,
                    ValueLayout.JAVA_BYTE,
                    r * bytes,
                    bytes);
        }
        long[] shape = t.dims() == 1 ? new long[] {count} : new long[] {count, rows};
        return new GgufTensor(t.name(), t.type(), shape, t.offset(), out);
    }
}
