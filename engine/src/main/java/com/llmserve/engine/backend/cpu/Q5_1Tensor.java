package com.llmserve.engine.backend.cpu;

import static com.llmserve.engine.backend.cpu.Simd.F;
import static com.llmserve.engine.backend.cpu.Simd.L;
import static com.llmserve.engine.backend.cpu.Simd.LE_INT;
import static com.llmserve.engine.backend.cpu.Simd.bytes;
import static com.llmserve.engine.backend.cpu.Simd.f16;
import static com.llmserve.engine.backend.cpu.Simd.toFloats;
import static com.llmserve.engine.backend.cpu.Simd.u8;

import com.llmserve.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;

/** Q5_1: blocks of 32 as {@code {f16 d; f16 m; u32 qh; u8 qs[16]}}, bits as in Q5_0, each {@code q * d + m}. */
public final class Q5_1Tensor extends CpuTensor {

    Q5_1Tensor(String name, MemorySegment data, long rows, int cols) {
        super(name, GgmlType.Q5_1, data, rows, cols);
    }

    @Override
    void dequantizeBlockScalar(long o, float[] out, int off) {
        float d = f16(data, o);
        float m = f16(data, o + 2);
        int qh = data.get(LE_INT, o + 4);
        for (int j = 0; j < 16; j++) {
            int q = u8(data, o + 8 + j);
            int h0 = ((qh >>> j) << 4) & 0x10;
            int h1 = (qh >>> (j + 12)) & 0x10;
            out[off + j] = ((q & 0x0F) | h0) * d + m;
            out[off + j + 16] = ((q >>> 4) | h1) * d + m;
        }
    }

    @Override
    void dequantizeBlock(long o, float[] out, int off) {
        float d = f16(data, o);
        float m = f16(data, o + 2);
        int qh = data.get(LE_INT, o + 4);
        for (int k = 0; k < 16; k += L) {
            ByteVector q = bytes(data, o + 8 + k);
            toFloats(low(q, qh, k)).mul(d).add(m).intoArray(out, off + k);
            toFloats(high(q, qh, k)).mul(d).add(m).intoArray(out, off + 16 + k);
        }
    }

    @Override
    float dotRow(long row, float[] x, int xOff) {
        FloatVector acc = FloatVector.zero(F);
        long o = row * rowBytes;
        for (int b = 0; b < blocksPerRow; b++, o += 24) {
            int xb = xOff + b * 32;
            int qh = data.get(LE_INT, o + 4);
            FloatVector qx = FloatVector.zero(F);
            FloatVector xs = FloatVector.zero(F);
            for (int k = 0; k < 16; k += L) {
                ByteVector q = bytes(data, o + 8 + k);
                FloatVector x0 = FloatVector.fromArray(F, x, xb + k);
                FloatVector x1 = FloatVector.fromArray(F, x, xb + 16 + k);
                qx = toFloats(low(q, qh, k)).fma(x0, qx);
                qx = toFloats(high(q, qh, k)).fma(x1, qx);
                xs = xs.add(x0).add(x1);
            }
            acc = qx.fma(FloatVector.broadcast(F, f16(data, o)), acc);
            acc = xs.fma(FloatVector.broadcast(F, f16(data, o + 2)), acc);
        }
        return Simd.sum(acc);
    }

    /** Unsigned 5-bit values in [0, 31]; the byte lanes stay non-negative so widening is exact. */
    private static ByteVector low(ByteVector q, int qh, int k) {
        return q.and((byte) 0x0F).lanewise(VectorOperators.OR, (byte) 0x10, Simd.bitMask(qh >>> k));
    }

    private static ByteVector high(ByteVector q, int qh, int k) {
        return q.lanewise(VectorOperators.LSHR, 4)
                .lanewise(VectorOperators.OR, (byte) 0x10, Simd.bitMask(qh >>> (16 + k)));
    }
}
