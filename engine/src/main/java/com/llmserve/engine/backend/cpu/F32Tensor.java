package com.llmserve.engine.backend.cpu;

import static com.llmserve.engine.backend.cpu.Simd.F;
import static com.llmserve.engine.backend.cpu.Simd.L;
import static com.llmserve.engine.backend.cpu.Simd.LE_FLOAT;

import com.llmserve.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;

/** Plain float32 rows. */
public final class F32Tensor extends CpuTensor {

    F32Tensor(String name, MemorySegment data, long rows, int cols) {
        super(name, GgmlType.F32, data, rows, cols);
    }

    @Override
    void dequantizeBlockScalar(long blockOffset, float[] out, int off) {
        out[off] = data.get(LE_FLOAT, blockOffset);
    }

    @Override
    void dequantizeBlock(long blockOffset, float[] out, int off) {
        out[off] = data.get(LE_FLOAT, blockOffset);
    }

    /** Bulk copy; the per-element block walk of the base class would be needlessly slow here. */
    @Override
    public void dequantizeRow(long row, float[] out, int off) {
        MemorySegment.copy(data, LE_FLOAT, row * rowBytes, out, off, cols);
    }

    @Override
    void dequantizeColumns(long row, int k0, int width, float[] out, int off) {
        MemorySegment.copy(data, LE_FLOAT, row * rowBytes + 4L * k0, out, off, width);
    }

    @Override
    float dotRow(long row, float[] x, int xOff) {
        long base = row * rowBytes;
        FloatVector acc0 = FloatVector.zero(F);
        FloatVector acc1 = FloatVector.zero(F);
        int i = 0;
        for (; i + 2 * L <= cols; i += 2 * L) {
            acc0 = FloatVector.fromMemorySegment(F, data, base + 4L * i, ByteOrder.LITTLE_ENDIAN)
                    .fma(FloatVector.fromArray(F, x, xOff + i), acc0);
            acc1 = FloatVector.fromMemorySegment(F, data, base + 4L * (i + L), ByteOrder.LITTLE_ENDIAN)
                    .fma(FloatVector.fromArray(F, x, xOff + i + L), acc1);
        }
        float s = Simd.sum(acc0.add(acc1));
        for (; i < cols; i++) {
            s += data.get(LE_FLOAT, base + 4L * i) * x[xOff + i];
        }
        return s;
    }
}
