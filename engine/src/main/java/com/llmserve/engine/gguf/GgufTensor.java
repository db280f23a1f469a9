package com.llmserve.engine.gguf;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A tensor of a GGUF file: a zero-copy view of the mapped file, valid while the file is open.
 *
 * @param name   the tensor's name, e.g. {@code blk.0.attn_q.weight}
 * @param type   the element type
 * @param shape  dimensions in ggml order: {@code shape[0]} is the row length (contiguous)
 * @param offset the absolute byte offset of the data in the file
 * @param data   the bytes of the tensor, a slice of the mapping
 */
public record GgufTensor(String name, GgmlType type, long[] shape, long offset, MemorySegment data) {

    public GgufTensor {
        shape = shape.clone();
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    public int dims() {
        return shape.length;
    }

    public long dim(int i) {
        return i < shape.length ? shape[i] : 1;
    }

    /** Elements in one row ({@code ne0}). */
    public long rowLength() {
        return dim(0);
    }

    /** Number of rows: the product of every dimension but the first. */
    public long rows() {
        long r = 1;
        for (int i = 1; i < shape.length; i++) {
            r *= shape[i];
        }
        return r;
    }

    public long elementCount() {
        return rowLength() * rows();
    }

    public long rowBytes() {
        return type.byteSize(rowLength());
    }

    public long byteSize() {
        return data.byteSize();
    }

    @Override
    public String toString() {
        return name + " " + type + Arrays.toString(shape);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GgufTensor t
                && t.name.equals(name)
                && t.type == type
                && Arrays.equals(t.shape, shape)
                && t.offset == offset;
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Long.hashCode(offset);
    }
}
