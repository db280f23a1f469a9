package com.llmserve.engine.backend.cpu;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** Q8_0 in {@link PackedRows} layout: byte {@code j} of a block is element {@code j}; one 32-byte load holds it for 32 rows. */
final class PackedQ8_0 extends PackedRows {

    private static final VectorSpecies<Byte> B16 = ByteVector.SPECIES_128;

    private PackedQ8_0(MemorySegment data, int blocks, long rows) {
        super(data, blocks, rows, 32);
    }

    static PackedQ8_0 pack(Q8_0Tensor t, MemorySegment source, long rowBytes, Arena arena) {
        int blocks = t.cols() / 32;
        MemorySegment out = interleave(source, t.rows(), blocks, rowBytes, 34, arena, i -> i);
        return out == null ? null : new PackedQ8_0(out, blocks, t.rows());
    }

    /** Sixteen signed bytes (16 rows of one element) as floats. */
    private FloatVector elements(long at) {
        return (FloatVector) ByteVector.fromMemorySegment(B16, data, at, ByteOrder.LITTLE_ENDIAN)
                .convertShape(VectorOperators.B2I, I16, 0)
                .convert(VectorOperators.I2F, 0);
    }

    /** Float products with the 8-bit activations restored to floats; the weights' scale is applied once per block. */
    @Override
    boolean multipliesIntegers() {
        return false;
    }

    @Override
    void gemv(PreparedInput in, int cols, int tokens, float[] y, int yo, int yStride, long g0, long g1) {
        float[] x = in.values();
        for (long g = g0; g < g1; g++) {
            for (int t = 0; t < tokens; t++) {
                FloatVector acc0 = FloatVector.zero(F);
                FloatVector acc1 = FloatVector.zero(F);
                for (int b = 0; b < blocks; b++) {
                    long at = at(g, b);
                    FloatVector s0 = FloatVector.zero(F);
                    FloatVector s1 = FloatVector.zero(F);
                    int xb = t * cols + 32 * b;
                    long q = at + SCALE_BYTES;
                    for (int j = 0; j < 32; j++, q += GROUP) {
                        FloatVector v = FloatVector.broadcast(F, x[xb + j]);
                        s0 = elements(q).fma(v, s0);
                        s1 = elements(q + 16).fma(v, s1);
                    }
                    acc0 = s0.fma(scales(at, 0), acc0);
                    acc1 = s1.fma(scales(at, 1), acc1);
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
            for (int half = 0; half < 2; half++) {
                FloatVector d = scales(at, half);
                long q = at + SCALE_BYTES + 16L * half;
                for (int j = 0; j < 32; j++, q += GROUP) {
                    elements(q).mul(d).intoArray(tile, (k + j) * GROUP + 16 * half);
                }
            }
        }
    }
}
