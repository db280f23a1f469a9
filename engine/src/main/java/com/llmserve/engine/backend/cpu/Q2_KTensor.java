package com.llmserve.engine.backend.cpu;

import static com.llmserve.engine.backend.cpu.Simd.F;
import static com.llmserve.engine.backend.cpu.Simd.L;
import static com.llmserve.engine.backend.cpu.Simd.bytes;
import static com.llmserve.engine.backend.cpu.Simd.f16;
import static com.llmserve.engine.backend.cpu.Simd.toFloats;
import static com.llmserve.engine.backend.cpu.Simd.u8;

import com.llmserve.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;

/**
 * Q2_K: super-blocks of 256 as {@code {u8 scales[16]; u8 qs[64]; f16 d; f16 dmin}}. Sixteen groups
 * of 16 weights, each with a 4-bit scale and 4-bit min; a group's 2-bit values sit at one bit
 * position of 16 bytes of {@code qs}: {@code d*sc*q - dmin*m}.
 */
public final class Q2_KTensor extends CpuTensor {

    Q2_KTensor(String name, MemorySegment data, long rows, int cols) {
        super(name, GgmlType.Q2_K, data, rows, cols);
    }

    @Override
    void dequantizeBlockScalar(long o, float[] out, int off) {
        float d = f16(data, o + 80);
        float min = f16(data, o + 82);
        int y = off;
        for (int group = 0; group < 16; group++) {
            int sc = u8(data, o + group);
            float dl = d * (sc & 0x0F);
            float ml = min * (sc >>> 4);
            long q = qsOf(o, group);
            int shift = shiftOf(group);
            for (int l = 0; l < 16; l++) {
                out[y++] = dl * ((u8(data, q + l) >>> shift) & 3) - ml;
            }
        }
    }

    @Override
    void dequantizeBlock(long o, float[] out, int off) {
        float d = f16(data, o + 80);
        float min = f16(data, o + 82);
        for (int group = 0; group < 16; group++) {
            int sc = u8(data, o + group);
            float dl = d * (sc & 0x0F);
            float ml = min * (sc >>> 4);
            long q = qsOf(o, group);
            int shift = shiftOf(group);
            for (int k = 0; k < 16; k += L) {
                toFloats(bytes(data, q + k)
                                .lanewise(VectorOperators.LSHR, shift)
                                .and((byte) 3))
                        .mul(dl)
                        .sub(ml)
                        .intoArray(out, off + group * 16 + k);
            }
        }
    }

    @Override
    float dotRow(long row, float[] x, int xOff) {
        FloatVector acc = FloatVector.zero(F);
        long o = row * rowBytes;
        for (int b = 0; b < blocksPerRow; b++, o += 84) {
            float d = f16(data, o + 80);
            float min = f16(data, o + 82);
            int xb = xOff + b * 256;
            for (int group = 0; group < 16; group++) {
                int sc = u8(data, o + group);
                float dl = d * (sc & 0x0F);
                float negMl = -min * (sc >>> 4);
                long q = qsOf(o, group);
                int shift = shiftOf(group);
                for (int k = 0; k < 16; k += L) {
                    FloatVector w = toFloats(bytes(data, q + k)
                                    .lanewise(VectorOperators.LSHR, shift)
                                    .and((byte) 3))
                            .fma(dl, negMl);
                    acc = w.fma(FloatVector.fromArray(F, x, xb + group * 16 + k), acc);
                }
            }
        }
        return Simd.sum(acc);
    }

    /**
     * Group {@code g} (16 weights) reads 16 bytes of {@code qs}: the first or second half of the
     * 32 bytes that serve its 128-weight half of the super-block.
     */
    private static long qsOf(long o, int group) {
        return o + 16 + 32 * (group / 8) + 16 * (group & 1);
    }

    private static int shiftOf(int group) {
        return 2 * ((group % 8) / 2);
    }
}
