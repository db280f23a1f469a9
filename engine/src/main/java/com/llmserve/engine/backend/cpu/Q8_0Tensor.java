package com.llmserve.engine.backend.cpu;

import static com.llmserve.engine.backend.cpu.Simd.F;
import static com.llmserve.engine.backend.cpu.Simd.L;
import static com.llmserve.engine.backend.cpu.Simd.bytes;
import static com.llmserve.engine.backend.cpu.Simd.f16;
import static com.llmserve.engine.backend.cpu.Simd.i8;
import static com.llmserve.engine.backend.cpu.Simd.toFloats;

import com.llmserve.engine.gguf.GgmlType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.FloatVector;

/** Q8_0: blocks of 32 as {@code {f16 d; i8 qs[32]}}, each {@code q * d}. */
public final class Q8_0Tensor extends CpuTensor {

    Q8_0Tensor(String name, MemorySegment data, long rows, int cols) {
        super(name, GgmlType.Q8_0, data, rows, cols);
    }

    @Override
    PackedRows packRows(Arena arena) {
        return PackedQ8_0.pack(this, data, rowBytes, arena);
    }

    @Override
    void dequantizeBlockScalar(long o, float[] out, int off) {
        float d = f16(data, o);
        for (int j = 0; j < 32; j++) {
            out[off + j] = i8(data, o + 2 + j) * d;
        }
    }

    @Override
    void dequantizeBlock(long o, float[] out, int off) {
        float d = f16(data, o);
        for (int k = 0; k < 32; k += L) {
            toFloats(bytes(data, o + 2 + k)).mul(d).intoArray(out, off + k);
        }
    }

    @Override
    float dotRow(long row, float[] x, int xOff) {
        FloatVector acc = FloatVector.zero(F);
        long o = row * rowBytes;
        for (int b = 0; b < blocksPerRow; b++, o += 34) {
            int xb = xOff + b * 32;
            FloatVector block = FloatVector.zero(F);
            for (int k = 0; k < 32; k += L) {
                block = toFloats(bytes(data, o + 2 + k)).fma(FloatVector.fromArray(F, x, xb + k), block);
            }
            acc = block.fma(FloatVector.broadcast(F, f16(data, o)), acc);
        }
        return Simd.sum(acc);
    }
}
