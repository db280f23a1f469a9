package com.llmserve.engine.backend.cpu;

import static com.llmserve.engine.backend.cpu.Simd.F;
import static com.llmserve.engine.backend.cpu.Simd.L;
import static com.llmserve.engine.backend.cpu.Simd.LE_SHORT;

import com.llmserve.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/** bfloat16 rows: the upper half of a float32. */
public final class BF16Tensor extends CpuTensor {

    private static final VectorSpecies<Short> S = VectorSpecies.of(short.class, VectorShape.forBitSize(L * 16));
    private static final VectorSpecies<Integer> I = VectorSpecies.of(int.class, VectorShape.forBitSize(L * 32));

    BF16Tensor(String name, MemorySegment data, long rows, int cols) {
        super(name, GgmlType.BF16, data, rows, cols);
    }

    static float bf16ToFloat(short bits) {
        return Float.intBitsToFloat(bits << 16);
    }

    @Override
    void dequantizeBlockScalar(long blockOffset, float[] out, int off) {
        out[off] = bf16ToFloat(data.get(LE_SHORT, blockOffset));
    }

    @Override
    void dequantizeBlock(long blockOffset, float[] out, int off) {
        out[off] = bf16ToFloat(data.get(LE_SHORT, blockOffset));
    }

    private static FloatVector toFloat(ShortVector h) {
        return ((IntVector) h.castShape(I, 0))
                .lanewise(VectorOperators.LSHL, 16)
                .reinterpretAsFloats();
    }

    @Override
    public void dequantizeRow(long row, float[] out, int off) {
        dequantizeColumns(row, 0, cols, out, off);
    }

    @Override
    void dequantizeColumns(long row, int k0, int width, float[] out, int off) {
        long base = row * rowBytes + 2L * k0;
        int i = 0;
        if (Simd.ENABLED) {
            for (; i + L <= width; i += L) {
                toFloat(ShortVector.fromMemorySegment(S, data, base + 2L * i, ByteOrder.LITTLE_ENDIAN))
                        .intoArray(out, off + i);
            }
        }
        for (; i < width; i++) {
            out[off + i] = bf16ToFloat(data.get(LE_SHORT, base + 2L * i));
        }
    }

    @Override
    float dotRow(long row, float[] x, int xOff) {
        long base = row * rowBytes;
        FloatVector acc = FloatVector.zero(F);
        int i = 0;
        for (; i + L <= cols; i += L) {
            FloatVector w = toFloat(ShortVector.fromMemorySegment(S, data, base + 2L * i, ByteOrder.LITTLE_ENDIAN));
            acc = w.fma(FloatVector.fromArray(F, x, xOff + i), acc);
        }
        float s = Simd.sum(acc);
        for (; i < cols; i++) {
            s += bf16ToFloat(data.get(LE_SHORT, base + 2L * i)) * x[xOff + i];
        }
        return s;
    }
}
