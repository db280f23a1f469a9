package com.llmserve.engine.backend.cpu;

import static com.llmserve.engine.backend.cpu.Simd.F;
import static com.llmserve.engine.backend.cpu.Simd.L;
import static com.llmserve.engine.backend.cpu.Simd.bytes;
import static com.llmserve.engine.backend.cpu.Simd.f16;
import static com.llmserve.engine.backend.cpu.Simd.i8;
import static com.llmserve.engine.backend.cpu.Simd.toFloats;
import static com.llmserve.engine.backend.cpu.Simd.u8;

import com.llmserve.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;

/**
 * Q6_K: super-blocks of 256 as {@code {u8 ql[128]; u8 qh[64]; i8 scales[16]; f16 d}}. Each
 * 128-weight half takes 64 bytes of {@code ql} (low 4 bits) and 32 of {@code qh} (2 high bits for
 * four weights per byte); sixteen groups of 16 have 8-bit signed scales: {@code d*sc*(q-32)}.
 */
public final class Q6_KTensor extends CpuTensor {

    Q6_KTensor(String name, MemorySegment data, long rows, int cols) {
        super(name, GgmlType.Q6_K, data, rows, cols);
    }

    @Override
    void dequantizeBlockScalar(long o, float[] out, int off) {
        float d = f16(data, o + 208);
        for (int n = 0; n < 2; n++) {
            long ql = o + 64 * n;
            long qh = o + 128 + 32 * n;
            long sc = o + 192 + 8 * n;
            int y = off + 128 * n;
            for (int l = 0; l < 32; l++) {
                int is = l / 16;
                int h = u8(data, qh + l);
                int q1 = ((u8(data, ql + l) & 0x0F) | ((h & 3) << 4)) - 32;
                int q2 = ((u8(data, ql + l + 32) & 0x0F) | (((h >>> 2) & 3) << 4)) - 32;
                int q3 = ((u8(data, ql + l) >>> 4) | (((h >>> 4) & 3) << 4)) - 32;
                int q4 = ((u8(data, ql + l + 32) >>> 4) | (((h >>> 6) & 3) << 4)) - 32;
                out[y + l] = d * i8(data, sc + is) * q1;
                out[y + l + 32] = d * i8(data, sc + is + 2) * q2;
                out[y + l + 64] = d * i8(data, sc + is + 4) * q3;
                out[y + l + 96] = d * i8(data, sc + is + 6) * q4;
            }
        }
    }

    @Override
    void dequantizeBlock(long o, float[] out, int off) {
        float d = f16(data, o + 208);
        for (int n = 0; n < 2; n++) {
            long ql = o + 64 * n;
            long qh = o + 128 + 32 * n;
            long sc = o + 192 + 8 * n;
            int y = off + 128 * n;
            for (int l = 0; l < 32; l += L) {
                int is = l / 16;
                ByteVector lo = bytes(data, ql + l);
                ByteVector hi = bytes(data, ql + l + 32);
                ByteVector h = bytes(data, qh + l);
                toFloats(q1(lo, h)).mul(d * i8(data, sc + is)).intoArray(out, y + l);
                toFloats(q2(hi, h)).mul(d * i8(data, sc + is + 2)).intoArray(out, y + l + 32);
                toFloats(q3(lo, h)).mul(d * i8(data, sc + is + 4)).intoArray(out, y + l + 64);
                toFloats(q4(hi, h)).mul(d * i8(data, sc + is + 6)).intoArray(out, y + l + 96);
            }
        }
    }

    @Override
    float dotRow(long row, float[] x, int xOff) {
        FloatVector acc = FloatVector.zero(F);
        long o = row * rowBytes;
        for (int b = 0; b < blocksPerRow; b++, o += 210) {
            float d = f16(data, o + 208);
            for (int n = 0; n < 2; n++) {
                long ql = o + 64 * n;
                long qh = o + 128 + 32 * n;
                long sc = o + 192 + 8 * n;
                int xn = xOff + b * 256 + 128 * n;
                for (int l = 0; l < 32; l += L) {
                    int is = l / 16;
                    ByteVector lo = bytes(data, ql + l);
                    ByteVector hi = bytes(data, ql + l + 32);
                    ByteVector h = bytes(data, qh + l);
                    FloatVector s1 = toFloats(q1(lo, h)).mul(FloatVector.fromArray(F, x, xn + l));
                    FloatVector s2 = toFloats(q2(hi, h)).mul(FloatVector.fromArray(F, x, xn + l + 32));
                    FloatVector s3 = toFloats(q3(lo, h)).mul(FloatVector.fromArray(F, x, xn + l + 64));
                    FloatVector s4 = toFloats(q4(hi, h)).mul(FloatVector.fromArray(F, x, xn + l + 96));
                    acc = s1.fma(FloatVector.broadcast(F, d * i8(data, sc + is)), acc);
                    acc = s2.fma(FloatVector.broadcast(F, d * i8(data, sc + is + 2)), acc);
                    acc = s3.fma(FloatVector.broadcast(F, d * i8(data, sc + is + 4)), acc);
                    acc = s4.fma(FloatVector.broadcast(F, d * i8(data, sc + is + 6)), acc);
                }
            }
        }
        return Simd.sum(acc);
    }

    private static ByteVector q1(ByteVector lo, ByteVector h) {
        return lo.and((byte) 0x0F)
                .or(h.and((byte) 3).lanewise(VectorOperators.LSHL, 4))
                .sub((byte) 32);
    }

    private static ByteVector q2(ByteVector hi, ByteVector h) {
        return hi.and((byte) 0x0F)
                .or(h.lanewise(VectorOperators.LSHR, 2).and((byte) 3).lanewise(VectorOperators.LSHL, 4))
                .sub((byte) 32);
    }

    private static ByteVector q3(ByteVector lo, ByteVector h) {
        return lo.lanewise(VectorOperators.LSHR, 4)
                .or(h.lanewise(VectorOperators.LSHR, 4).and((byte) 3).lanewise(VectorOperators.LSHL, 4))
                .sub((byte) 32);
    }

    private static ByteVector q4(ByteVector hi, ByteVector h) {
        return hi.lanewise(VectorOperators.LSHR, 4)
                .or(h.lanewise(VectorOperators.LSHR, 6).lanewise(VectorOperators.LSHL, 4))
                .sub((byte) 32);
    }
}
