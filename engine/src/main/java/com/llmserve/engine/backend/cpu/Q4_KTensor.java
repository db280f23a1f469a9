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
 * Q4_K: super-blocks of 256 as {@code {f16 d; f16 dmin; u8 scales[12]; u8 qs[128]}}. Eight groups
 * of 32 with 6-bit scale and min; group {@code 2c} is the low nibbles of {@code qs[32c..32c+32)},
 * group {@code 2c+1} the high nibbles: {@code d*sc*q - dmin*m}.
 */
public final class Q4_KTensor extends CpuTensor {

    Q4_KTensor(String name, MemorySegment data, long rows, int cols) {
        super(name, GgmlType.Q4_K, data, rows, cols);
    }

    @Override
    void dequantizeBlockScalar(long o, float[] out, int off) {
        float d = f16(data, o);
        float min = f16(data, o + 2);
        int y = off;
        for (int c = 0; c < 4; c++) {
            long q = o + 16 + 32 * c;
            float d1 = d * KScales.scale(data, o + 4, 2 * c);
            float m1 = min * KScales.min(data, o + 4, 2 * c);
            float d2 = d * KScales.scale(data, o + 4, 2 * c + 1);
            float m2 = min * KScales.min(data, o + 4, 2 * c + 1);
            for (int l = 0; l < 32; l++) {
                out[y++] = d1 * (u8(data, q + l) & 0x0F) - m1;
            }
            for (int l = 0; l < 32; l++) {
                out[y++] = d2 * (u8(data, q + l) >>> 4) - m2;
            }
        }
    }

    @Override
    void dequantizeBlock(long o, float[] out, int off) {
        float d = f16(data, o);
        float min = f16(data, o + 2);
        for (int c = 0; c < 4; c++) {
            long q = o + 16 + 32 * c;
            float d1 = d * KScales.scale(data, o + 4, 2 * c);
            float m1 = min * KScales.min(data, o + 4, 2 * c);
            float d2 = d * KScales.scale(data, o + 4, 2 * c + 1);
            float m2 = min * KScales.min(data, o + 4, 2 * c + 1);
            int y = off + 64 * c;
            for (int k = 0; k < 32; k += L) {
                ByteVector v = bytes(data, q + k);
                toFloats(v.and((byte) 0x0F)).mul(d1).sub(m1).intoArray(out, y + k);
                toFloats(v.lanewise(VectorOperators.LSHR, 4)).mul(d2).sub(m2).intoArray(out, y + 32 + k);
            }
        }
    }

    @Override
    float dotRow(long row, float[] x, int xOff) {
        FloatVector acc = FloatVector.zero(F);
        long o = row * rowBytes;
        for (int b = 0; b < blocksPerRow; b++, o += 144) {
            float d = f16(data, o);
            float min = f16(data, o + 2);
            for (int c = 0; c < 4; c++) {
                long q = o + 16 + 32 * c;
                int xc = xOff + b * 256 + 64 * c;
                // sum (d1*q - m1) * x = d1 * sum(q*x) - m1 * sum(x), per group of 32
                FloatVector qx1 = FloatVector.zero(F);
                FloatVector qx2 = FloatVector.zero(F);
                FloatVector xs1 = FloatVector.zero(F);
                FloatVector xs2 = FloatVector.zero(F);
                for (int k = 0; k < 32; k += L) {
                    ByteVector v = bytes(data, q + k);
                    FloatVector x1 = FloatVector.fromArray(F, x, xc + k);
                    FloatVector x2 = FloatVector.fromArray(F, x, xc + 32 + k);
                    qx1 = toFloats(v.and((byte) 0x0F)).fma(x1, qx1);
                    qx2 = toFloats(v.lanewise(VectorOperators.LSHR, 4)).fma(x2, qx2);
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
}
