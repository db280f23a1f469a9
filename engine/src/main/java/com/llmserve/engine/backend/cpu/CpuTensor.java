package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.backend.UnsupportedTensorTypeException;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufTensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A weight matrix for the CPU: {@code rows} rows of {@code cols} elements in one ggml type, read
 * straight from the memory-mapped file. One final subclass per type supplies a scalar reference
 * (the definition of the format, used as the test oracle) and Vector API paths for
 * dequantization and for the fused dot product that matrix multiplication is built on.
 */
public abstract sealed class CpuTensor
        permits F32Tensor,
                F16Tensor,
                BF16Tensor,
                Q4_0Tensor,
                Q4_1Tensor,
                Q5_0Tensor,
                Q5_1Tensor,
                Q8_0Tensor,
                Q2_KTensor,
                Q3_KTensor,
                Q4_KTensor,
                Q5_KTensor,
                Q6_KTensor,
                MXFP4Tensor {

    protected final String name;
    protected final GgmlType type;
    protected final MemorySegment data;
    protected final long rows;
    protected final int cols;
    protected final long rowBytes;
    protected final int blocksPerRow;

    protected CpuTensor(String name, GgmlType type, MemorySegment data, long rows, int cols) {
        if (cols % type.blockSize() != 0) {
            throw new IllegalArgumentException(name + ": row length " + cols + " is not a multiple of the " + type
                    + " block size " + type.blockSize());
        }
        this.name = name;
        this.type = type;
        this.data = data;
        this.rows = rows;
        this.cols = cols;
        this.blocksPerRow = cols / type.blockSize();
        this.rowBytes = (long) blocksPerRow * type.typeSize();
        if (data.byteSize() < rowBytes * rows) {
            throw new IllegalArgumentException(
                    name + ": " + data.byteSize() + " bytes hold fewer than " + rows + " rows");
        }
    }

    /** Wraps a GGUF tensor (any number of dimensions: all but the first are rows) without copying it. */
    public static CpuTensor of(GgufTensor t) {
        if (t.rowLength() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(t.name() + ": rows of " + t.rowLength() + " elements are too long");
        }
        return of(t.name(), t.type(), t.data(), t.rows(), (int) t.rowLength());
    }

    public static CpuTensor of(String name, GgmlType type, MemorySegment data, long rows, int cols) {
        return switch (type) {
            case F32 -> new F32Tensor(name, data, rows, cols);
            case F16 -> new F16Tensor(name, data, rows, cols);
            case BF16 -> new BF16Tensor(name, data, rows, cols);
            case Q4_0 -> new Q4_0Tensor(name, data, rows, cols);
            case Q4_1 -> new Q4_1Tensor(name, data, rows, cols);
            case Q5_0 -> new Q5_0Tensor(name, data, rows, cols);
            case Q5_1 -> new Q5_1Tensor(name, data, rows, cols);
            case Q8_0 -> new Q8_0Tensor(name, data, rows, cols);
            case Q2_K -> new Q2_KTensor(name, data, rows, cols);
            case Q3_K -> new Q3_KTensor(name, data, rows, cols);
            case Q4_K -> new Q4_KTensor(name, data, rows, cols);
            case Q5_K -> new Q5_KTensor(name, data, rows, cols);
            case Q6_K -> new Q6_KTensor(name, data, rows, cols);
            case MXFP4 -> new MXFP4Tensor(name, data, rows, cols);
            default -> throw new UnsupportedTensorTypeException(name, type);
        };
    }

    public String name() {
        return name;
    }

    public GgmlType type() {
        return type;
    }

    public long rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    /** Byte offset of block {@code b} of row {@code row}. */
    protected final long blockOffset(long row, int b) {
        return row * rowBytes + (long) b * type.typeSize();
    }

    /** Scalar reference: writes block {@code b} of {@code row} as floats to {@code out[off..]}. */
    abstract void dequantizeBlockScalar(long blockOffset, float[] out, int off);

    /** Vector path of {@link #dequantizeBlockScalar}; must give identical values. */
    abstract void dequantizeBlock(long blockOffset, float[] out, int off);

    /** Vector path of {@link #dot}: row {@code row} · {@code x[xOff .. xOff+cols)}. */
    abstract float dotRow(long row, float[] x, int xOff);

    /** Writes row {@code row} as floats to {@code out[off .. off+cols)}. */
    public void dequantizeRow(long row, float[] out, int off) {
        int bs = type.blockSize();
        boolean vector = Simd.ENABLED;
        for (int b = 0; b < blocksPerRow; b++) {
            if (vector) {
                dequantizeBlock(blockOffset(row, b), out, off + b * bs);
            } else {
                dequantizeBlockScalar(blockOffset(row, b), out, off + b * bs);
            }
        }
    }

    /** Scalar reference of {@link #dequantizeRow}. */
    public final void dequantizeRowScalar(long row, float[] out, int off) {
        int bs = type.blockSize();
        for (int b = 0; b < blocksPerRow; b++) {
            dequantizeBlockScalar(blockOffset(row, b), out, off + b * bs);
        }
    }

    /** The dot product of row {@code row} with {@code x[xOff .. xOff+cols)}, fused with dequantization. */
    public final float dot(long row, float[] x, int xOff) {
        return Simd.ENABLED ? dotRow(row, x, xOff) : (float) dotScalar(row, x, xOff);
    }

    /** Scalar reference of {@link #dot}: dequantize, then sum in double precision. */
    public final double dotScalar(long row, float[] x, int xOff) {
        float[] w = new float[cols];
        dequantizeRowScalar(row, w, 0);
        double s = 0;
        for (int i = 0; i < cols; i++) {
            s += (double) w[i] * x[xOff + i];
        }
        return s;
    }

    /** A machine-specific copy of the weights ({@link PackedRows}), which the kernels read instead of {@link #data}. */
    private PackedRows packed;

    /**
     * Re-lays the weights out for this machine's kernels in memory from {@code arena}, when the
     * type has such a layout; the zero-copy view stays valid for everything else.
     *
     * @return whether a packed copy was made (the mapped pages can then be released)
     */
    final boolean pack(Arena arena) {
        return pack(arena, null);
    }

    /**
     * As {@link #pack(Arena)}, into the layout of {@code kernels} where it has kernels for this
     * type (every product then runs there), else of the Java kernels.
     */
    final boolean pack(Arena arena, NativeKernels kernels) {
        if (kernels != null && kernels.supports(type)) {
            nativeRows = NativeRows.pack(kernels, type, data, rows, cols, rowBytes, arena);
            packed = null;
            return true;
        }
        packed = PackedRows.available() ? packRows(arena) : null;
        return packed != null;
    }

    /** The native kernels' copy of the weights, which every product then uses; or null. */
    private NativeRows nativeRows;

    /** The native kernels this tensor's products run on, or null. */
    final NativeKernels nativeKernels() {
        return nativeRows == null ? null : nativeRows.kernels;
    }

    /** This type's packed layout, or null when it has none (or a scale forbids it). */
    PackedRows packRows(Arena arena) {
        return null;
    }

    /** Batches at least this large run through {@link TileGemm}; smaller ones through fused dot products. */
    static final int TILE_MIN_TOKENS = 4;

    private static final ThreadLocal<float[]> TILE =
            ThreadLocal.withInitial(() -> new float[TileGemm.ROWS * TileGemm.K_CHUNK]);
    private static final ThreadLocal<float[]> ROW = ThreadLocal.withInitial(() -> new float[TileGemm.K_CHUNK]);

    /**
     * {@code y[t*yStride + yOffset + r] = row r · x[t*cols ..]} for rows {@code [rowStart, rowEnd)}
     * and tokens {@code [0, tokens)}. Small batches take a fused dot product per row and token
     * (the weights are read once, from memory, either way); larger ones dequantize tiles of rows
     * once and reuse them for every token.
     */
    public void matmul(float[] x, int tokens, float[] y, int yOffset, int yStride, long rowStart, long rowEnd) {
        PreparedInput in = PreparedInput.of(this, x, tokens);
        matmul(in, tokens, y, yOffset, yStride, rowStart, rowEnd);
    }

    /** What llama.cpp quantizes this type's activations to; see {@link ActivationFormat}. */
    ActivationFormat activationFormat() {
        return switch (type) {
            case F32, F16, BF16 -> ActivationFormat.FLOAT;
            case Q2_K, Q3_K, Q4_K, Q5_K, Q6_K -> ActivationFormat.Q8_K;
            default -> ActivationFormat.Q8_0;
        };
    }

    /** Whether {@link #matmulRows} wants the 8-bit integers themselves (a product that is not tiled). */
    final boolean usesIntegerActivations(boolean tiled) {
        return packed != null && packed.multipliesIntegers() && !tiled;
    }

    /** {@link #matmul(float[], int, float[], int, int, long, long)} on activations prepared once per product. */
    void matmul(PreparedInput in, int tokens, float[] y, int yOffset, int yStride, long rowStart, long rowEnd) {
        if (nativeRows != null) {
            nativeRows.gemm(in.nativeQ8(), tokens, y, yOffset, yStride, rowStart, rowEnd);
            return;
        }
        if (in.tiled()) {
            matmulTiled(in.values(), in.octets(), tokens, y, yOffset, yStride, rowStart, rowEnd);
            return;
        }
        matmulRows(in, tokens, y, yOffset, yStride, rowStart, rowEnd);
    }

    /**
     * The native kernels' product on tokens {@code [firstToken, firstToken + tokens)} of {@code x}
     * (written from {@code y}'s token 0 on); only for a tensor whose {@link #nativeKernels()} are set.
     */
    void matmulNative(
            NativeQ8 x, int firstToken, int tokens, float[] y, int yOffset, int yStride, long rowStart, long rowEnd) {
        nativeRows.gemm(x, firstToken, tokens, y, yOffset, yStride, rowStart, rowEnd);
    }

    /** One fused dot product per row and token; the packed kernel for groups of rows when there is one. */
    private void matmulRows(
            PreparedInput in, int tokens, float[] y, int yOffset, int yStride, long rowStart, long rowEnd) {
        if (packed != null
                && rowStart % PackedRows.GROUP == 0
                && (in.integers() != null || !packed.multipliesIntegers())) {
            packed.gemv(
                    in,
                    cols,
                    tokens,
                    y,
                    yOffset,
                    yStride,
                    rowStart / PackedRows.GROUP,
                    (rowEnd + PackedRows.GROUP - 1) / PackedRows.GROUP);
            return;
        }
        float[] x = in.values();
        for (long r = rowStart; r < rowEnd; r++) {
            int col = yOffset + (int) r;
            for (int t = 0; t < tokens; t++) {
                y[t * yStride + col] = dot(r, x, t * cols);
            }
        }
    }

    /** Where {@link #matmulTiled} leaves the sum of the bytes it touched, so that the reads stay. */
    @SuppressWarnings("unused")
    private static int touchSink;

    private void matmulTiled(
            float[] x, float[] octets, int tokens, float[] y, int yOffset, int yStride, long rowStart, long rowEnd) {
        float[] tile = TILE.get();
        int bs = type.blockSize();
        int chunk = Math.max(TileGemm.K_CHUNK / bs * bs, bs); // a multiple of every block size
        int touched = 0;
        for (long r0 = rowStart; r0 < rowEnd; r0 += TileGemm.ROWS) {
            int rows = (int) Math.min(TileGemm.ROWS, rowEnd - r0);
            for (int k0 = 0; k0 < cols; k0 += chunk) {
                int width = Math.min(chunk, cols - k0);
                dequantizeTile(r0, rows, k0, width, tile);
                if (packed != null && r0 % PackedRows.GROUP == 0) {
                    long nextRow = k0 + chunk < cols ? r0 : r0 + TileGemm.ROWS;
                    int nextK = k0 + chunk < cols ? k0 + chunk : 0;
                    if (nextRow < rowEnd) {
                        touched += packed.touch(nextRow, nextK, Math.min(chunk, cols - nextK));
                    }
                }
                TileGemm.multiply(
                        tile, width, rows, x, octets, cols, k0, tokens, y, yStride, yOffset + (int) r0, k0 > 0);
            }
        }
        touchSink = touched;
    }

    /** Columns {@code [k0, k0+width)} of {@code row} (block-aligned) as floats at {@code out[off..]}. */
    void dequantizeColumns(long row, int k0, int width, float[] out, int off) {
        int bs = type.blockSize();
        for (int b = 0; b < width / bs; b++) {
            dequantizeBlock(blockOffset(row, k0 / bs + b), out, off + b * bs);
        }
    }

    /**
     * Writes columns {@code [k0, k0+width)} of rows {@code [r0, r0+rows)} element-major into
     * {@code tile}: {@code tile[k * ROWS + i]} is element {@code k0+k} of row {@code r0+i}; rows
     * past {@code rows} are zero. {@code k0} and {@code width} are multiples of the block size.
     * Packed layouts, which store rows interleaved, convert directly.
     */
    private void dequantizeTile(long r0, int rows, int k0, int width, float[] tile) {
        if (packed != null && r0 % PackedRows.GROUP == 0) {
            packed.dequantizeTile(r0, k0, width, tile);
            return;
        }
        float[] row = ROW.get();
        for (int i = 0; i < TileGemm.ROWS; i++) {
            if (i >= rows) {
                for (int k = 0; k < width; k++) {
                    tile[k * TileGemm.ROWS + i] = 0f;
                }
                continue;
            }
            dequantizeColumns(r0 + i, k0, width, row, 0);
            for (int k = 0; k < width; k++) {
                tile[k * TileGemm.ROWS + i] = row[k];
            }
        }
    }

    @Override
    public String toString() {
        return name + " " + type + "[" + cols + " x " + rows + "]";
    }
}
