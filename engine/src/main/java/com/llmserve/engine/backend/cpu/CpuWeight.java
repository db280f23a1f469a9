package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.gguf.GgmlType;
import java.lang.foreign.Arena;
import java.util.List;

/**
 * A weight on the CPU: either a matrix made of the rows of one or more zero-copy tensors, or a
 * float32 vector (norms and biases, copied once because they are tiny and read constantly).
 */
final class CpuWeight implements Weight {

    private final String name;
    private final List<CpuTensor> parts;
    /** First output row of each part. */
    private final long[] firstRow;

    private final long rows;
    private final int cols;
    private final float[] vector;
    /** Memory of packed copies, or null. */
    private final Arena arena;

    private CpuWeight(String name, List<CpuTensor> parts, float[] vector, Arena arena) {
        this.name = name;
        this.parts = parts;
        this.vector = vector;
        this.arena = arena;
        if (vector != null) {
            this.firstRow = new long[0];
            this.rows = 1;
            this.cols = vector.length;
            return;
        }
        this.firstRow = new long[parts.size()];
        long r = 0;
        int c = parts.getFirst().cols();
        for (int i = 0; i < parts.size(); i++) {
            CpuTensor p = parts.get(i);
            if (p.cols() != c) {
                throw new IllegalArgumentException(
                        name + ": fused parts have different row lengths " + c + " and " + p.cols());
            }
            firstRow[i] = r;
            r += p.rows();
        }
        this.rows = r;
        this.cols = c;
    }

    static CpuWeight matrix(String name, List<CpuTensor> parts, Arena arena) {
        return new CpuWeight(name, List.copyOf(parts), null, arena);
    }

    static CpuWeight vector(String name, float[] values) {
        return new CpuWeight(name, List.of(), values, null);
    }

    @Override
    public void close() {
        if (arena != null) {
            arena.close();
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public GgmlType type() {
        return vector != null ? GgmlType.F32 : parts.getFirst().type();
    }

    @Override
    public long rows() {
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    float[] vector() {
        if (vector == null) {
            throw new IllegalStateException(name + " is a matrix, not a vector");
        }
        return vector;
    }

    List<CpuTensor> parts() {
        return parts;
    }

    long firstRow(int part) {
        return firstRow[part];
    }

    /** Row {@code row} of the fused matrix as floats. */
    void dequantizeRow(long row, float[] out, int off) {
        for (int i = parts.size() - 1; i >= 0; i--) {
            if (row >= firstRow[i]) {
                parts.get(i).dequantizeRow(row - firstRow[i], out, off);
                return;
            }
        }
        throw new IndexOutOfBoundsException(row);
    }

    @Override
    public String toString() {
        return name + (vector != null ? "[" + cols + "]" : parts.toString());
    }
}
