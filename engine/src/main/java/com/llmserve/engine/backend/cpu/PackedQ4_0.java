package com.llmserve.engine.backend.cpu;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Q4_0 in {@link PackedRows} layout: a block's 16 bytes hold element {@code j} (low nibble) and
 * {@code j+16} (high nibble); one 32-byte run holds byte {@code j} of 32 rows, row {@code i} at
 * position {@code 2i} and row {@code i+16} at {@code 2i+1}. Rows 0-15 and 16-31 then come apart
 * by sign-extending the halves of 32-bit lanes, where taking the parts of a 16-bit vector would
 * cost slices and shuffles, and enough compiled nodes that C2 stops inlining the kernel's helpers.
 */
final class PackedQ4_0 extends PackedRows {

    private static final VectorSpecies<Byte> B32 = ByteVector.SPECIES_256;
    private static final VectorSpecies<Short> S16 = ShortVector.SPECIES_256;
    private static final VectorSpecies<Short> S32 = ShortVector.SPECIES_512;

    private PackedQ4_0(MemorySegment data, int blocks, long rows) {
        super(data, blocks, rows, 16);
    }

    static PackedQ4_0 pack(Q4_0Tensor t, MemorySegment source, long rowBytes, Arena arena) {
        int blocks = t.cols() / 32;
        MemorySegment out =
                interleave(source, t.rows(), blocks, rowBytes, 18, arena, i -> i < 16 ? 2 * i : 2 * (i - 16) + 1);
        return out == null ? null : new PackedQ4_0(out, blocks, t.rows());
    }

    /**
     * Integer products, as ggml's Q4_0 x Q8_0 dot: 16-bit multiplies of unsigned nibbles and 8-bit
     * activations, one 16-bit sum per row and block, less 8 times the activations' sum. The sum
     * wraps on the way, harmlessly: the result, {@code sum (q - 8) x}, lies within 32 * 8 * 127 < 2^15.
     */
    @Override
    boolean multipliesIntegers() {
        return true;
    }

    @Override
    void gemv(PreparedInput in, int cols, int tokens, float[] y, int yo, int yStride, long g0, long g1) {
        Q8Activations x = in.integers();
        short[] xq = x.values;
        for (long g = g0; g < g1; g++) {
            for (int t = 0; t < tokens; t++) {
                FloatVector acc0 = FloatVector.zero(F);
                FloatVector acc1 = FloatVector.zero(F);
                for (int b = 0; b < blocks; b++) {
                    long at = at(g, b);
                    ShortVector sum = ShortVector.zero(S32);
                    int xb = t * cols + 32 * b;
                    long q = at + SCALE_BYTES;
                    for (int j = 0; j < 16; j++, q += GROUP) {
                        ShortVector v =
                                (ShortVector) ByteVector.fromMemorySegment(B32, data, q, ByteOrder.LITTLE_ENDIAN)
                                        .convertShape(VectorOperators.ZERO_EXTEND_B2S, S32, 0);
                        sum = v.and((short) 0x0F).mul(xq[xb + j]).add(sum);
                        sum = v.lanewise(VectorOperators.LSHR, 4)
                                .mul(xq[xb + 16 + j])
                                .add(sum);
                    }
                    int tb = t * blocks + b;
                    IntVector s = sum.sub((short) (8 * x.sums[tb])).reinterpretAsInts();
                    float dx = x.scales[tb];
                    IntVector s0 = s.lanewise(VectorOperators.LSHL, 16).lanewise(VectorOperators.ASHR, 16);
                    IntVector s1 = s.lanewise(VectorOperators.ASHR, 16);
                    acc0 = ((FloatVector) s0.convert(VectorOperators.I2F, 0))
                            .fma(scales(at, 0).mul(dx), acc0);
                    acc1 = ((FloatVector) s1.convert(VectorOperators.I2F, 0))
                            .fma(scales(at, 1).mul(dx), acc1);
                }
                store(acc0, acc1, y, t * yStride + yo + (int) (g * GROUP), g);
            }
        }
    }

    @Override
    void dequantizeTile(long r0, int k0, int width, float[] tile) {
        long g = r0 / GROUP;
        for (int b = k0 / 32; b < (k0 + width) / 32; b++) {
            long at = at(g, b);
            int k = 32 * b - k0;
            FloatVector d0 = scales(at, 0);
            FloatVector d1 = scales(at, 1);
            long q = at + SCALE_BYTES;
            for (int j = 0; j < 16; j++, q += GROUP) {
                // int lane i holds row i's byte (low 8 bits) and row i+16's (next 8)
                IntVector v = (IntVector) ShortVector.fromMemorySegment(S16, data, q, ByteOrder.LITTLE_ENDIAN)
                        .convertShape(VectorOperators.ZERO_EXTEND_S2I, I16, 0);
                int e = (k + j) * GROUP;
                int f = (k + 16 + j) * GROUP;
                ((FloatVector) v.and(0x0F).sub(8).convert(VectorOperators.I2F, 0))
                        .mul(d0)
                        .intoArray(tile, e);
                ((FloatVector) v.lanewise(VectorOperators.LSHR, 4)
                                .and(0x0F)
                                .sub(8)
                                .convert(VectorOperators.I2F, 0))
                        .mul(d0)
                        .intoArray(tile, f);
                ((FloatVector) v.lanewise(VectorOperators.LSHR, 8)
                                .and(0x0F)
                                .sub(8)
                                .convert(VectorOperators.I2F, 0))
                        .mul(d1)
                        .intoArray(tile, e + 16);
                ((FloatVector) v.lanewise(VectorOperators.LSHR, 12).sub(8).convert(VectorOperators.I2F, 0))
                        .mul(d1)
                        .intoArray(tile, f + 16);
            }
        }
    }
}
