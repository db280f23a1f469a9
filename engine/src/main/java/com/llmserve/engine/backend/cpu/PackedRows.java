package com.llmserve.engine.backend.cpu;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.function.IntUnaryOperator;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Weights of a {@code {f16 d; u8 qs[n]}} block type (Q4_0, Q8_0) re-laid out for AVX-512, as
 * llama.cpp repacks them for its CPU kernels: rows in groups of 32, and for each group and block
 * the 32 rows' scales followed by, for each byte position of a block, that byte of the 32 rows.
 * One load then holds the same element of 32 rows, so a vector lane is a row: no horizontal sums,
 * and one activation broadcast feeds 32 rows. Same bits and size as the file.
 */
abstract class PackedRows {

    static final int GROUP = 32;
    static final int SCALE_BYTES = 2 * GROUP;
    static final VectorSpecies<Float> F = FloatVector.SPECIES_512;
    private static final VectorSpecies<Short> S16 = ShortVector.SPECIES_256;
    static final VectorSpecies<Integer> I16 = IntVector.SPECIES_512;

    final MemorySegment data;
    final int blocks;
    final long rows;
    /** Bytes per group and block: the scales, then {@code quantBytes} bytes of 32 rows. */
    final int groupBlockBytes;

    PackedRows(MemorySegment data, int blocks, long rows, int quantBytes) {
        this.data = data;
        this.blocks = blocks;
        this.rows = rows;
        this.groupBlockBytes = SCALE_BYTES + quantBytes * GROUP;
    }

    /** Whether this machine has the 16-lane floats the layout is made for. */
    static boolean available() {
        return Simd.ENABLED && Simd.L == 16 && TileGemm.ROWS == GROUP;
    }

    /**
     * Interleaves a tensor's rows, or returns null when a scale is not finite: the fast f16
     * conversion used here assumes finite scales, and such a file is better served by the exact
     * zero-copy path.
     *
     * @param blockBytes bytes of one block in the file ({@code 2 + quantBytes})
     * @param position   where row {@code i} of a group goes within each 32-byte run
     */
    static MemorySegment interleave(
            MemorySegment source,
            long rows,
            int blocks,
            long rowBytes,
            int blockBytes,
            Arena arena,
            IntUnaryOperator position) {
        int quantBytes = blockBytes - 2;
        for (long row = 0; row < rows; row++) {
            for (int b = 0; b < blocks; b++) {
                if (!Float.isFinite(Simd.f16(source, row * rowBytes + (long) b * blockBytes))) {
                    return null;
                }
            }
        }
        long groups = (rows + GROUP - 1) / GROUP;
        long groupBlock = SCALE_BYTES + (long) quantBytes * GROUP;
        MemorySegment out = arena.allocate(groups * blocks * groupBlock, 64);
        for (long row = 0; row < rows; row++) { // padding rows of the last group stay zero: scale 0
            long g = row / GROUP;
            int i = (int) (row % GROUP);
            for (int b = 0; b < blocks; b++) {
                long src = row * rowBytes + (long) b * blockBytes;
                long dst = (g * blocks + b) * groupBlock;
                out.set(Simd.LE_SHORT, dst + 2L * i, source.get(Simd.LE_SHORT, src));
                for (int j = 0; j < quantBytes; j++) {
                    out.set(
                            Simd.BYTE,
                            dst + SCALE_BYTES + (long) j * GROUP + position.applyAsInt(i),
                            source.get(Simd.BYTE, src + 2 + j));
                }
            }
        }
        return out;
    }

    /**
     * Reads one byte of each cache line of the group starting at row {@code r0}, columns
     * {@code [k0, k0+width)}, and returns their sum. Issued for the next tile just before this
     * one's products run, these reads bring its weights from memory while the FMAs work; without
     * them, {@link #dequantizeTile} waited on memory at the start of every tile (4-5% of a
     * 2-thread prefill).
     */
    final int touch(long r0, int k0, int width) {
        int sum = 0;
        long g = r0 / GROUP;
        for (long o = at(g, k0 / 32), end = at(g, (k0 + width) / 32); o < end; o += 64) {
            sum += data.get(Simd.BYTE, o);
        }
        return sum;
    }

    /** Offset of group {@code g}'s block {@code b}. */
    final long at(long g, int b) {
        return (g * blocks + b) * groupBlockBytes;
    }

    /** Scales of 16 rows ({@code half} 0 or 1 of the group) of the block at {@code at}; finite by construction. */
    final FloatVector scales(long at, int half) {
        ShortVector h = ShortVector.fromMemorySegment(S16, data, at + 32L * half, ByteOrder.LITTLE_ENDIAN);
        IntVector i = (IntVector) h.castShape(I16, 0);
        FloatVector magnitude = i.and(0x7fff)
                .lanewise(VectorOperators.LSHL, 13)
                .reinterpretAsFloats()
                .mul(0x1p112f);
        return magnitude
                .reinterpretAsInts()
                .or(i.and(0x8000).lanewise(VectorOperators.LSHL, 16))
                .reinterpretAsFloats();
    }

    /** Writes a group's 32 results (rows 0-15 in {@code lo}, 16-31 in {@code hi}) at {@code y[at..]}, leaving padding rows out. */
    final void store(FloatVector lo, FloatVector hi, float[] y, int at, long group) {
        long valid = rows - group * GROUP;
        if (valid >= GROUP) {
            lo.intoArray(y, at);
            hi.intoArray(y, at + 16);
        } else {
            for (int i = 0; i < valid; i++) {
                y[at + i] = i < 16 ? lo.lane(i) : hi.lane(i - 16);
            }
        }
    }

    /** Whether {@link #gemv} multiplies the 8-bit activation integers rather than their float values. */
    abstract boolean multipliesIntegers();

    /**
     * {@code y[t*yStride + yo + r] = row r · x_t} for the rows of groups {@code [g0, g1)}. Tokens
     * are the inner loop so that a group's bytes stay in L1.
     */
    abstract void gemv(PreparedInput x, int cols, int tokens, float[] y, int yo, int yStride, long g0, long g1);

    /** Element-major floats of the group starting at row {@code r0}, columns {@code [k0, k0+width)}: {@code tile[k * 32 + i]}. */
    abstract void dequantizeTile(long r0, int k0, int width, float[] tile);
}
