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
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/** IEEE half-precision rows. */
public final class F16Tensor extends CpuTensor {

    private static final VectorSpecies<Short> S = VectorSpecies.of(short.class, VectorShape.forBitSize(L * 16));
    private static final VectorSpecies<Integer> I = VectorSpecies.of(int.class, VectorShape.forBitSize(L * 32));
    /** 2^112: rebases a half's exponent field (bias 15) placed in a float's bits (bias 127). */
    private static final float REBIAS = 0x1p112f;

    F16Tensor(String name, MemorySegment data, long rows, int cols) {
        super(name, GgmlType.F16, data, rows, cols);
    }

    @Override
    void dequantizeBlockScalar(long blockOffset, float[] out, int off) {
        out[off] = Float.float16ToFloat(data.get(LE_SHORT, blockOffset));
    }

    @Override
    void dequantizeBlock(long blockOffset, float[] out, int off) {
        out[off] = Float.float16ToFloat(data.get(LE_SHORT, blockOffset));
    }

    /**
     * Converts {@link Simd#L} halves to floats without a hardware conversion instruction (the
     * Vector API has none): shifting exponent and mantissa into float position and multiplying by
     * 2^112 is exact for normal and subnormal halves; infinities and NaNs are patched by mask.
     */
    static FloatVector halfToFloat(ShortVector h) {
        IntVector i = (IntVector) h.castShape(I, 0);
        IntVector magnitude = i.and(0x7fff);
        IntVector shifted = magnitude.lanewise(VectorOperators.LSHL, 13);
        FloatVector f = shifted.reinterpretAsFloats().mul(REBIAS);
        VectorMask<Integer> special = magnitude.compare(VectorOperators.GE, 0x7c00);
        if (special.anyTrue()) {
            f = f.blend(shifted.or(0x7f800000).reinterpretAsFloats(), special.cast(F));
        }
        IntVector sign = i.and(0x8000).lanewise(VectorOperators.LSHL, 16);
        return f.reinterpretAsInts().or(sign).reinterpretAsFloats();
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
                halfToFloat(ShortVector.fromMemorySegment(S, data, base + 2L * i, ByteOrder.LITTLE_ENDIAN))
                        .intoArray(out, off + i);
            }
        }
        for (; i < width; i++) {
            out[off + i] = Float.float16ToFloat(data.get(LE_SHORT, base + 2L * i));
        }
    }

    @Override
    float dotRow(long row, float[] x, int xOff) {
        long base = row * rowBytes;
        FloatVector acc = FloatVector.zero(F);
        int i = 0;
        for (; i + L <= cols; i += L) {
            FloatVector w = halfToFloat(ShortVector.fromMemorySegment(S, data, base + 2L * i, ByteOrder.LITTLE_ENDIAN));
            acc = w.fma(FloatVector.fromArray(F, x, xOff + i), acc);
        }
        float s = Simd.sum(acc);
        for (; i < cols; i++) {
            s += Float.float16ToFloat(data.get(LE_SHORT, base + 2L * i)) * x[xOff + i];
        }
        return s;
    }
}
