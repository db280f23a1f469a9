package com.llmserve.engine.backend.cpu;

import static com.llmserve.engine.backend.cpu.Simd.F;
import static com.llmserve.engine.backend.cpu.Simd.L;
import static com.llmserve.engine.backend.cpu.Simd.bytes;
import static com.llmserve.engine.backend.cpu.Simd.f16;
import static com.llmserve.engine.backend.cpu.Simd.toFloats;
import static com.llmserve.engine.backend.cpu.Simd.u8;

import com.llmserve.engine.gguf.GgmlType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;

/**
 * Q4_0: blocks of 32 weights as {@code {f16 d; u8 qs[16]}}; element {@code j} is the low nibble of
 * {@code qs[j]} and element {@code j+16} the high nibble, each {@code (q - 8) * d}.
 */
public final class Q4_0Tensor extends CpuTensor {

    Q4_0Tensor(String name, MemorySegment data, long rows, int cols) {
        super(name, GgmlType.Q4_0, data, rows, cols);
    }

    @Override
    PackedRows packRows(Arena arena) {
        return PackedQ4_0.pack(this, data, rowBytes, arena);
    }

    @Override
    void dequantizeBlockScalar(long o, float[] out, int off) {
        float d = f16(data, o);
        for (int j = 0; j < 16; j++) {
            int q = u8(data, o + 2 + j);
            out[off + j] = ((q & 0x0F) - 8) * d;
            out[off + j + 16] = ((q >>> 4) - 8) * d;
        }
    }

    @Override
    void dequantizeBlock(long o, float[] out, int off) {
        float d = f16(data, o);
        for (int k = 0; k < 16; k += L) {
            ByteVector q = bytes(data, o + 2 + k);
            toFloats(q.and((byte) 0x0F).sub((byte) 8)).mul(d).intoArray(out, off + k);
            toFloats(q.lanewise(VectorOperators.LSHR, 4).sub((byte) 8)).mul(d).intoArray(out, off + 16 + k);
        }
    }

    @Override
    float dotRow(long row, float[] x, int xOff) {
        FloatVector acc = FloatVector.zero(F);
        long o = row * rowBytes;
        for (int b = 0; b < blocksPerRow; b++, o += 18) {
            int xb = xOff + b * 32;
            FloatVector block = FloatVector.zero(F);
            for (int k = 0; k < 16; k += L) {
                ByteVector q = bytes(data, o + 2 + k);
                block = toFloats(q.and((byte) 0x0F).sub((byte) 8)).fma(FloatVector.fromArray(F, x, xb + k), block);
                block = toFloats(q.lanewise(VectorOperators.LSHR, 4).sub((byte) 8))
                        .fma(FloatVector.fromArray(F, x, xb + 16 + k), block);
            }
            acc = block.fma(FloatVector.broadcast(F, f16(data, o)), acc);
        }
        return Simd.sum(acc);
    }
}
