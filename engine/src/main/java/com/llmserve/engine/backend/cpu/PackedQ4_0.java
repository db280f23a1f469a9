package com.llmserve.engine.backend.cpu;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * Q4_0 weights re-laid out for AVX-512, as llama.cpp repacks Q4_0 for its CPU kernels: rows in
 * groups of 32, and for each group and block the 32 rows' f16 scales followed by, for each of the
 * 16 byte positions of a block, that byte of the 32 rows. One 32-byte load then holds element
 * {@code j} (low nibbles) and {@code j+16} (high nibbles) of 32 rows, so a vector lane is a row:
 * no horizontal sums, and one activation broadcast feeds 32 rows. Same bits and size as the file
 * (576 bytes per 32 rows and block).
 */
final class PackedQ4_0 {

    static final int GROUP = 32;
    private static final int SCALE_BYTES = 2 * GROUP;
    private static final int BLOCK_BYTES = SCALE_BYTES + 16 * GROUP;
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_512;
    private static final VectorSpecies<Byte> B16 = ByteVector.SPECIES_128;
    private static final VectorSpecies<Byte> B32 = ByteVector.SPECIES_256;
    private static final VectorSpecies<Short> S16 = ShortVector.SPECIES_256;
    private static final VectorSpecies<Short> S32 = ShortVector.SPECIES_512;
    private static final VectorSpecies<Integer> I16 = IntVector.SPECIES_512;

    private final MemorySegment data;
    private final int blocks;
    private final long rows;

    private PackedQ4_0(MemorySegment data, int blocks, long rows) {
        this.data = data;
        this.blocks = blocks;
        this.rows = rows;
    }

    /** Whether this machine has the 16-lane floats the layout is made for. */
    static boolean available() {
        return Simd.ENABLED && Simd.L == 16 && TileGemm.ROWS == GROUP;
    }

    /**
     * Packs a tensor, or returns null when a scale is not finite: the fast f16 conversion used
     * here assumes finite scales, and such a file is better served by the exact zero-copy path.
     */
    static PackedQ4_0 pack(Q4_0Tensor t, MemorySegment source, long rowBytes, Arena arena) {
        int blocks = t.cols() / 32;
        for (long row = 0; row < t.rows(); row++) {
            for (int b = 0; b < blocks; b++) {
                if (!Float.isFinite(Simd.f16(source, row * rowBytes + b * 18L))) {
                    return null;
                }
            }
        }
        long groups = (t.rows() + GROUP - 1) / GROUP;
        MemorySegment out = arena.allocate(groups * blocks * BLOCK_BYTES, 64);
        for (long g = 0; g < groups; g++) {
            for (int i = 0; i < GROUP && g * GROUP + i < t.rows(); i++) { // padding rows stay zero
                long row = g * GROUP + i;
                for (int b = 0; b < blocks; b++) {
                    long src = row * rowBytes + b * 18L;
                    long dst = (g * blocks + b) * BLOCK_BYTES;
                    out.set(Simd.LE_SHORT, dst + 2L * i, source.get(Simd.LE_SHORT, src));
                    for (int j = 0; j < 16; j++) {
                        out.set(Simd.BYTE, dst + SCALE_BYTES + (long) j * GROUP + i, source.get(Simd.BYTE, src + 2 + j));
                    }
                }
            }
        }
        return new PackedQ4_0(out, blocks, t.rows());
    }

    /** Scales of 16 rows ({@code half} 0 or 1 of the group) of the block at {@code at}; finite by construction. */
    private FloatVector scales(long at, int half) {
        ShortVector h = ShortVector.fromMemorySegment(S16, data, at + 32L * half, ByteOrder.LITTLE_ENDIAN);
        IntVector i = (IntVector) h.castShape(I16, 0);
        FloatVector magnitude = i.and(0x7fff).lanewise(VectorOperators.LSHL, 13).reinterpretAsFloats().mul(0x1p112f);
        return magnitude.reinterpretAsInts().or(i.and(0x8000).lanewise(VectorOperators.LSHL, 16)).reinterpretAsFloats();
    }

    /**
     * {@code y[t*yStride + yo + r] = row r · x_t} for the rows of groups {@code [g0, g1)} and every
     * token, with the activations quantized: 16-bit multiplies of nibbles (unsigned, the offset 8
     * applied through the block sums) and 8-bit activations, summed in 16-bit lanes over half a
     * block each (at most 16 * 15 * 127 < 2^15), then scaled per block. Tokens are the inner loop
     * so that a group's bytes stay in L1.
     */
    void gemv(Q8Activations x, int cols, int tokens, float[] y, int yo, int yStride, long g0, long g1) {
        short[] xq = x.values;
        for (long g = g0; g < g1; g++) {
            long base = g * blocks * BLOCK_BYTES;
            for (int t = 0; t < tokens; t++) {
                FloatVector acc0 = FloatVector.zero(F);
                FloatVector acc1 = FloatVector.zero(F);
                long at = base;
                for (int b = 0; b < blocks; b++, at += BLOCK_BYTES) {
                    ShortVector lo = ShortVector.zero(S32);
                    ShortVector hi = ShortVector.zero(S32);
                    int xb = t * cols + 32 * b;
                    long q = at + SCALE_BYTES;
                    for (int j = 0; j < 16; j++, q += GROUP) {
                        ShortVector v = (ShortVector) ByteVector.fromMemorySegment(B32, data, q, ByteOrder.LITTLE_ENDIAN)
                                .convertShape(VectorOperators.ZERO_EXTEND_B2S, S32, 0);
                        lo = v.and((short) 0x0F).mul(xq[xb + j]).add(lo);
                        hi = v.lanewise(VectorOperators.LSHR, 4).mul(xq[xb + 16 + j]).add(hi);
                    }
                    int tb = t * blocks + b;
                    int offset = 8 * x.sums[tb];
                    float dx = x.scales[tb];
                    IntVector s0 = ((IntVector) lo.convertShape(VectorOperators.S2I, I16, 0))
                            .add((IntVector) hi.convertShape(VectorOperators.S2I, I16, 0)).sub(offset);
                    IntVector s1 = ((IntVector) lo.convertShape(VectorOperators.S2I, I16, 1))
                            .add((IntVector) hi.convertShape(VectorOperators.S2I, I16, 1)).sub(offset);
                    acc0 = ((FloatVector) s0.convert(VectorOperators.I2F, 0)).fma(scales(at, 0).mul(dx), acc0);
                    acc1 = ((FloatVector) s1.convert(VectorOperators.I2F, 0)).fma(scales(at, 1).mul(dx), acc1);
                }
                int out = t * yStride + yo + (int) (g * GROUP);
                long valid = rows - g * GROUP;
                if (valid >= GROUP) {
                    acc0.intoArray(y, out);
                    acc1.intoArray(y, out + 16);
                } else {
                    for (int i = 0; i < valid; i++) {
                        y[out + i] = i < 16 ? acc0.lane(i) : acc1.lane(i - 16);
                    }
                }
            }
        }
    }

    /**
     * Element-major floats of the group starting at row {@code r0} (a multiple of 32), columns
     * {@code [k0, k0+width)}, into a {@link TileGemm} tile ({@code tile[k * 32 + i]}).
     */
    void dequantizeTile(long r0, int k0, int width, float[] tile) {
        long g = r0 / GROUP;
        for (int b = k0 / 32; b < (k0 + width) / 32; b++) {
            long at = (g * blocks + b) * BLOCK_BYTES;
            int k = 32 * b - k0;
            for (int half = 0; half < 2; half++) {
                FloatVector d = scales(at, half);
                long q = at + SCALE_BYTES + 16L * half;
                for (int j = 0; j < 16; j++, q += GROUP) {
                    IntVector v = (IntVector) ByteVector.fromMemorySegment(B16, data, q, ByteOrder.LITTLE_ENDIAN)
                            .convertShape(VectorOperators.ZERO_EXTEND_B2I, I16, 0);
                    ((FloatVector) v.and(0x0F).sub(8).convert(VectorOperators.I2F, 0)).mul(d)
                            .intoArray(tile, (k + j) * GROUP + 16 * half);
                    ((FloatVector) v.lanewise(VectorOperators.LSHR, 4).sub(8).convert(VectorOperators.I2F, 0)).mul(d)
                            .intoArray(tile, (k + 16 + j) * GROUP + 16 * half);
                }
            }
        }
    }
}
