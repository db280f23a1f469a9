package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.gguf.GgmlType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** A weight matrix in the native kernels' layout ({@link NativeKernels#pack}), and its products. */
final class NativeRows {

    final NativeKernels kernels;
    final GgmlType type;
    /** The packed weights, owned by the backend's arena for the weight. */
    final MemorySegment data;
    /**
     * Their address as a segment of no scope, which the products pass: a downcall given the arena's
     * own segment acquires and releases its shared session on every call, an atomic update of one
     * cache line that every thread of the backend contends for. Safe because a weight's arena is
     * closed only when the model is, after its last product.
     */
    private final MemorySegment address;

    final long rows;
    final int cols;
    final int blocks;

    private NativeRows(NativeKernels kernels, GgmlType type, MemorySegment data, long rows, int cols) {
        this.kernels = kernels;
        this.type = type;
        this.data = data;
        this.address = MemorySegment.ofAddress(data.address());
        this.rows = rows;
        this.cols = cols;
        this.blocks = cols / type.blockSize();
    }

    static NativeRows pack(
            NativeKernels kernels,
            GgmlType type,
            MemorySegment source,
            long rows,
            int cols,
            long rowBytes,
            Arena arena) {
        MemorySegment packed = kernels.pack(type, source, rows, cols / type.blockSize(), rowBytes, arena);
        return new NativeRows(kernels, type, packed, rows, cols);
    }

    /**
     * {@code y[t*yStride + yOffset + r] = row r · x_t} for rows {@code [rowStart, rowEnd)}
     * ({@code rowStart} a multiple of {@link NativeKernels#GROUP}) and tokens {@code [0, tokens)}.
     */
    void gemm(NativeQ8 x, int tokens, float[] y, int yOffset, int yStride, long rowStart, long rowEnd) {
        gemm(x, 0, tokens, y, yOffset, yStride, rowStart, rowEnd);
    }

    /**
     * As {@link #gemm(NativeQ8, int, float[], int, int, long, long)} on tokens
     * {@code [firstToken, firstToken + tokens)} of {@code x}.
     */
    void gemm(NativeQ8 x, int firstToken, int tokens, float[] y, int yOffset, int yStride, long rowStart, long rowEnd) {
        if (rowStart % NativeKernels.GROUP != 0 || rowStart < 0 || rowEnd > rows || rowStart >= rowEnd) {
            throw new IllegalArgumentException("rows [" + rowStart + ", " + rowEnd + ") of " + rows);
        }
        // the library checks nothing: every index it forms must be in bounds here
        if (tokens < 1
                || firstToken < 0
                || ((long) firstToken + tokens) * cols > x.capacity()
                || yOffset + rowStart < 0
                || (long) (tokens - 1) * yStride + yOffset + rowEnd > y.length) {
            throw new IndexOutOfBoundsException(tokens + " tokens of " + cols + " from token " + firstToken + " into y["
                    + y.length + "] at " + yOffset + " stride " + yStride + ", rows to " + rowEnd);
        }
        long g0 = rowStart / NativeKernels.GROUP;
        long g1 = (rowEnd + NativeKernels.GROUP - 1) / NativeKernels.GROUP;
        // a last group past rowEnd (within rows) would write rows another task owns: stop at rowEnd
        kernels.gemm(type, address, blocks, Math.min(rows, rowEnd), g0, g1, x, firstToken, tokens, y, yOffset, yStride);
    }
}
