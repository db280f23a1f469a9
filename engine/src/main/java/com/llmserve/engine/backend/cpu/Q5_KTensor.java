package com.llmserve.engine.backend.cpu;

import static com.llmserve.engine.backend.cpu.Simd.F;
import static com.llmserve.engine.backend.cpu.Simd.L;
import static com.llmserve.engine.backend.cpu.Simd.bytes;
import static com.llmserve.engine.backend.cpu.Simd.f16;
import static com.llmserve.engine.backend.cpu.Simd.toFloats;
import static com.llmserve.engine.backend.cpu.Simd.u8;

import com.llmserve.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;

/**
 * Q5_K: super-blocks of 256 as {@code {f16 d; f16 dmin; u8 scales[12]; u8 qh[32]; u8 qs[128]}}:
 * Q4_K plus a fifth bit per weight, bit {@code g} of {@code qh[l]} for group {@code g}.
 */
public final class Q5_KTensor extends CpuTensor {

    Q5_KTensor(String name, MemorySegment data, long rows, int cols) {
        super(name, GgmlType.Q5_K, data, rows, cols);
    }

    @Override
    void dequantizeBlockScalar(long o, float[] out, int off) {
        float d = f16(data, o);
        float min = f16(data, o + 2);
        int y = off;
        for (int c = 0; c < 4; c++) {
            long ql = o + 48 + 32 * c;
            int u1 = 1 << (2 * c);
            int u2 = 2 << (2 * c);
            float d1 = d * KScales.scale(data, o + 4, 2 * c);
            float m1 = min * KScales.min(data, o + 4, 2 * c);
            float d2 = d * KScales.scale(data, o + 4, 2 * c + 1);
            float m2 = min * KScales.min(data, o + 4, 2 * c + 1);
            for (int l = 0; l < 32; l++) {
                out[y++] = d1 * ((u8(data, ql + l) & 0x0F) + ((u8(data, o + 16 + l) & u1) != 0 ? 16 : 0)) - m1;
            }
            for (int l = 0; l < 32; l++) {
                out[y++] = d2 * ((u8(data, ql + l) >>> 4) + ((u8(data, o + 16 + l) & u2) != 0 ? 16 : 0)) - m2;
            }
        }
    }

    @Override
    void dequantizeBlock(long o, float[] out, int off) {
        float d = f16(data, o);
        float min = f16(data, o + 2);
        for (int c = 0; c < 4; c++) {
            float d1 = d * KScales.scale(data, o + 4, 2 * c);
            float m1 = min * KScales.min(data, o + 4, 2 * c);
            float d2 = d * KScales.scale(data, o + 4, 2 * c + 1);
            float m2 = min * KScales.min(data, o + 4, 2 * c + 1);
            int y = off + 64 * c;
            for (int k = 0; k < 32; k += L) {
                toFloats(low(o, c, k)).mul(d1).sub(m1).intoArray(out, y + k);
                toFloats(high(o, c, k)).mul(d2).sub(m2).intoArray(out, y + 32 + k);
            }
        }
    }

    @Override
    float dotRow(long row, float[] x, int xOff) {
        FloatVector acc = FloatVector.zero(F);
        long o = row * rowBytes;
        for (int b = 0; b < blocksPerRow; b++, o += 176) {
            float d = f16(data, o);
            float min = f16(data, o + 2);
            for (int c = 0; c < 4; c++) {
                int xc = xOff + b * 256 + 64 * c;
                FloatVector qx1 = FloatVector.zero(F);
                FloatVector qx2 = FloatVector.zero(F);
                FloatVector xs1 = FloatVector.zero(F);
                FloatVector xs2 = FloatVector.zero(F);
                for (int k = 0; k < 32; k += L) {
                    FloatVector x1 = FloatVector.fromArray(F, x, xc + k);
                    FloatVector x2 = FloatVector.fromArray(F, x, xc + 32 + k);
                    qx1 = toFloats(low(o, c, k)).fma(x1, qx1);
                    qx2 = toFloats(high(o, c, k)).fma(x2, qx2);
                    xs1 = xs1.add(x1);
                    xs2 = xs2.add(x2);
                }
                acc = qx1.fma(FloatVector.broadcast(F, d * KScales.scale(data, o + 4, 2 * c)), acc);
                acc = qx2.fma(FloatVector.broadcast(F, d * KScales.scale(data, o + 4, 2 * c + 1)), acc);
                acc = xs1.fma(FloatVector.broadcast(F, -min * KScales.min(data, o + 4, 2 * c)), acc);
                acc = xs2.fma(FloatVector.broadcast(F, -min * KScales.min(data, o + 4, 2 * c + 1)), acc);
            }
        }
        return Simd.sum(acc);
    }

    /** Unsigned 5-bit values of group {@code 2c}, lanes {@code k .. k+L}. */
    private ByteVector low(long o, int c, int k) {
        ByteVector fifth = bytes(data, o + 16 + k).and((byte) (1 << (2 * c)));
        return bytes(data, o + 48 + 32 * c + k)
                .and((byte) 0x0F)
                .lanewise(VectorOperators.OR, (byte) 0x10, fifth.compare(VectorOperators.NE, (byte) 0));
    }

    /** Unsigned 5-bit values of group {@code 2c+1}. */
    private ByteVector high(long o, int c, int k) {
        ByteVector fifth = bytes(data, o + 16 + k).and((byte) (2 << (2 * c)));
        return bytes(data, o + 48 + 32 * c + k)
                .lanewise(VectorOperators.LSHR, 4)
                .lanewise(VectorOperators.OR, (byte) 0x10, fifth.compare(VectorOperators.NE, (byte) 0));
    }
}
