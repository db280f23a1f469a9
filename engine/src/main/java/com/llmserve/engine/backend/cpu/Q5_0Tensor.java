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

/**
 * Q5_0: blocks of 32 as {@code {f16 d; u32 qh; u8 qs[16]}}. Element {@code j} is the low nibble of
 * {@code qs[j]} plus bit {@code j} of {@code qh} as its fifth bit, element {@code j+16} the high
 * nibble plus bit {@code j+16}; each {@code (q - 16) * d}.
 */
public final class Q5_0Tensor extends CpuTensor {

    Q5_0Tensor(String name, MemorySegment data, long rows, int cols) {
        super(name, GgmlType.Q5_0, data, rows, cols);
    }

    @Override
    void dequantizeBlockScalar(long o, float[] out, int off) {
        float d = f16(data, o);
        int qh = data.get(LE_INT, o + 2);
        for (int j = 0; j < 16; j++) {
            int q = u8(data, o + 6 + j);
            int h0 = ((qh >>> j) << 4) & 0x10;
            int h1 = (qh >>> (j + 12)) & 0x10;
            out[off + j] = (((q & 0x0F) | h0) - 16) * d;
            out[off + j + 16] = (((q >>> 4) | h1) - 16) * d;
        }
    }

    @Override
    void dequantizeBlock(long o, float[] out, int off) {
        float d = f16(data, o);
        int qh = data.get(LE_INT, o + 2);
        for (int k = 0; k < 16; k += L) {
            ByteVector q = bytes(data, o + 6 + k);
            toFloats(low(q, qh, k)).mul(d).intoArray(out, off + k);
            toFloats(high(q, qh, k)).mul(d).intoArray(out, off + 16 + k);
        }
    }

    @Override
    float dotRow(long row, float[] x, int xOff) {
        FloatVector acc = FloatVector.zero(F);
        long o = row * rowBytes;
        for (int b = 0; b < blocksPerRow; b++, o += 22) {
            int xb = xOff + b * 32;
            int qh = data.get(LE_INT, o + 2);
            FloatVector block = FloatVector.zero(F);
            for (int k = 0; k < 16; k += L) {
                ByteVector q = bytes(data, o + 6 + k);
                block = toFloats(low(q, qh, k)).fma(FloatVector.fromArray(F, x, xb + k), block);
                block = toFloats(high(q, qh, k)).fma(FloatVector.fromArray(F, x, xb + 16 + k), block);
            }
            acc = block.fma(FloatVector.broadcast(F, f16(data, o)), acc);
        }
        return Simd.sum(acc);
    }

    /** Elements {@code k .. k+L} of the block's first half, as signed values in [-16, 15]. */
    private static ByteVector low(ByteVector q, int qh, int k) {
        return q.and((byte) 0x0F)
                .lanewise(VectorOperators.OR, (byte) 0x10, Simd.bitMask(qh >>> k))
                .sub((byte) 16);
    }

    private static ByteVector high(ByteVector q, int qh, int k) {
        return q.lanewise(VectorOperators.LSHR, 4)
                .lanewise(VectorOperators.OR, (byte) 0x10, Simd.bitMask(qh >>> (16 + k)))
                .sub((byte) 16);
    }
}
