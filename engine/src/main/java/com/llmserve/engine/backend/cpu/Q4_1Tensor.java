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

/** Q4_1: blocks of 32 as {@code {f16 d; f16 m; u8 qs[16]}}, nibbles as in Q4_0, each {@code q * d + m}. */
public final class Q4_1Tensor extends CpuTensor {

    Q4_1Tensor(String name, MemorySegment data, long rows, int cols) {
        super(name, GgmlType.Q4_1, data, rows, cols);
    }

    @Override
    void dequantizeBlockScalar(long o, float[] out, int off) {
        float d = f16(data, o);
        float m = f16(data, o + 2);
        for (int j = 0; j < 16; j++) {
            int q = u8(data, o + 4 + j);
            out[off + j] = (q & 0x0F) * d + m;
            out[off + j + 16] = (q >>> 4) * d + m;
        }
    }

    @Override
    void dequantizeBlock(long o, float[] out, int off) {
        float d = f16(data, o);
        float m = f16(data, o + 2);
        for (int k = 0; k < 16; k += L) {
            ByteVector q = bytes(data, o + 4 + k);
            toFloats(q.and((byte) 0x0F)).mul(d).add(m).intoArray(out, off + k);
            toFloats(q.lanewise(VectorOperators.LSHR, 4)).mul(d).add(m).intoArray(out, off + 16 + k);
        }
    }

    @Override
    float dotRow(long row, float[] x, int xOff) {
        FloatVector acc = FloatVector.zero(F);
        long o = row * rowBytes;
        for (int b = 0; b < blocksPerRow; b++, o += 20) {
            int xb = xOff + b * 32;
            // sum (q*d + m) * x = d * sum(q*x) + m * sum(x)
            FloatVector qx = FloatVector.zero(F);
            FloatVector xs = FloatVector.zero(F);
            for (int k = 0; k < 16; k += L) {
                ByteVector q = bytes(data, o + 4 + k);
                FloatVector x0 = FloatVector.fromArray(F, x, xb + k);
                FloatVector x1 = FloatVector.fromArray(F, x, xb + 16 + k);
                qx = toFloats(q.and((byte) 0x0F)).fma(x0, qx);
                qx = toFloats(q.lanewise(VectorOperators.LSHR, 4)).fma(x1, qx);
                xs = xs.add(x0).add(x1);
            }
            acc = qx.fma(FloatVector.broadcast(F, f16(data, o)), acc);
            acc = xs.fma(FloatVector.broadcast(F, f16(data, o + 2)), acc);
        }
        return Simd.sum(acc);
    }
}
