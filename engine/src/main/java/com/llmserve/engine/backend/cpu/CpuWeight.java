package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.gguf.GgmlType;
import java.lang.foreign.Arena;
import java.util.List;

/**
 * A weight on the CPU: either a matrix (or table, or a mixture's experts) made of the rows of one
 * or more zero-copy tensors, or a float32 vector (norms and biases, copied once because they are tiny and read
 * constantly).
 */
final class CpuWeight extends Weight {

    private final List<CpuTensor> parts;
    /** First output row of each part. */
    private final long[] firstRow;

    private final float[] vector;
    /** Memory of packed copies, or null. */
    private final Arena arena;

    private CpuWeight(
            Backend owner,
            String name,
            Kind kind,
            List<CpuTensor> parts,
            long rows,
            int cols,
            int experts,
            float[] vector,
            Arena arena) {
        super(owner, name, vector != null ? GgmlType.F32 : parts.getFirst().type(), kind, rows, cols, experts);
        this.parts = parts;
        this.vector = vector;
        this.arena = arena;
        this.firstRow = new long[parts.size()];
        long r = 0;
        for (int i = 0; i < parts.size(); i++) {
            firstRow[i] = r;
            r += parts.get(i).rows();
        }
    }

    static CpuWeight matrix(Backend owner, String name, Kind kind, List<CpuTensor> parts, Arena arena) {
        long rows = parts.stream().mapToLong(CpuTensor::rows).sum();
        return new CpuWeight(
                owner, name, kind, List.copyOf(parts), rows, parts.getFirst().cols(), 1, null, arena);
    }

    /** A mixture's experts: each part stacks {@code experts} matrices (expert e's rows, then e+1's...). */
    static CpuWeight experts(Backend owner, String name, List<CpuTensor> stacks, int experts, int rows, Arena arena) {
        return new CpuWeight(
                owner,
                name,
                Kind.EXPERTS,
                List.copyOf(stacks),
                rows,
                stacks.getFirst().cols(),
                experts,
                null,
                arena);
    }

    static CpuWeight vector(Backend owner, String name, float[] values) {
        return new CpuWeight(owner, name, Kind.VECTOR, List.of(), 1, values.length, 1, values, null);
    }

    @Override
    protected void release() {
        if (arena != null) {
            arena.close();
        }
    }

    float[] vector() {
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
}
