package com.llmserve.engine.backend.cpu;

import static com.llmserve.engine.backend.cpu.Simd.B;
import static com.llmserve.engine.backend.cpu.Simd.F;
import static com.llmserve.engine.backend.cpu.Simd.L;
import static com.llmserve.engine.backend.cpu.Simd.bytes;
import static com.llmserve.engine.backend.cpu.Simd.toFloats;
import static com.llmserve.engine.backend.cpu.Simd.u8;

import com.llmserve.engine.gguf.GgmlType;
import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;

/**
 * MXFP4 (OCP microscaling, gpt-oss's experts): blocks of 32 weights as {@code {u8 e; u8 qs[16]}}.
 * Element {@code j} is the low nibble of {@code qs[j]} and element {@code j+16} the high nibble,
 * each an E2M1 code whose value ggml keeps doubled ({@code 0, 1, 2, 3, 4, 6, 8, 12} and their
 * negatives), times {@code 2^(e - 128)} (the E8M0 scale halved to undo the doubling). Like Q4_0,
 * llama.cpp's CPU backend multiplies it with Q8_0-rounded activations.
 */
public final class MXFP4Tensor extends CpuTensor {

    /** The doubled E2M1 values of the 16 codes ({@code kvalues_mxfp4}). */
    static final byte[] VALUES = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

    /** {@link #VALUES} padded to a byte vector, for the lookup of the vector paths (16 lanes or more). */
    private static final ByteVector TABLE =
            L >= 16 ? ByteVector.fromArray(B, java.util.Arrays.copyOf(VALUES, L), 0) : null;

    MXFP4Tensor(String name, MemorySegment data, long rows, int cols) {
        super(name, GgmlType.MXFP4, data, rows, cols);
    }

    /** The E8M0 scale {@code e} halved, {@code 2^(e - 128)}, exactly as ggml's {@code ggml_e8m0_to_fp32_half}. */
    static float halfScale(int e) {
        return Float.intBitsToFloat(e < 2 ? 0x00200000 << e : (e - 1) << 23);
    }

    /**
     * The block at {@code o} of {@code mxfp4} as a GGML Q8_0 block at {@code out[at, at + 34)}: the
     * halved scale as an f16 (exact for scales of 2^-24 to 2^15, rounded beyond), then the 32 codes'
     * doubled values as int8. The GPU backend multiplies MXFP4 weights through its Q8_0 kernels
     * this way, with the same integer sums as {@code ggml_vec_dot_mxfp4_q8_0}.
     */
    public static void blockAsQ8_0(MemorySegment mxfp4, long o, byte[] out, int at) {
        short d = Float.floatToFloat16(halfScale(u8(mxfp4, o)));
        out[at] = (byte) d;
        out[at + 1] = (byte) (d >>> 8);
        for (int j = 0; j < 16; j++) {
            int q = u8(mxfp4, o + 1 + j);
            out[at + 2 + j] = VALUES[q & 0x0F];
            out[at + 2 + 16 + j] = VALUES[q >>> 4];
        }
    }

    @Override
    void dequantizeBlockScalar(long o, float[] out, int off) {
        float d = halfScale(u8(data, o));
        for (int j = 0; j < 16; j++) {
            int q = u8(data, o + 1 + j);
            out[off + j] = VALUES[q & 0x0F] * d;
            out[off + j + 16] = VALUES[q >>> 4] * d;
        }
    }

    @Override
    void dequantizeBlock(long o, float[] out, int off) {
        if (TABLE == null) {
            dequantizeBlockScalar(o, out, off);
            return;
        }
        float d = halfScale(u8(data, o));
        for (int k = 0; k < 16; k += L) {
            ByteVector q = bytes(data, o + 1 + k);
            toFloats(low(q)).mul(d).intoArray(out, off + k);
            toFloats(high(q)).mul(d).intoArray(out, off + 16 + k);
        }
    }

    private static ByteVector low(ByteVector q) {
        return TABLE.rearrange(q.and((byte) 0x0F).toShuffle());
    }

    private static ByteVector high(ByteVector q) {
        return TABLE.rearrange(
                q.lanewise(VectorOperators.LSHR, 4).and((byte) 0x0F).toShuffle());
    }

    @Override
    float dotRow(long row, float[] x, int xOff) {
        if (TABLE == null) {
            return dotRowDecoded(row, x, xOff);
        }
        FloatVector acc = FloatVector.zero(F);
        long o = row * rowBytes;
        for (int b = 0; b < blocksPerRow; b++, o += 17) {
            int xb = xOff + b * 32;
            FloatVector block = FloatVector.zero(F);
            for (int k = 0; k < 16; k += L) {
                ByteVector q = bytes(data, o + 1 + k);
                block = toFloats(low(q)).fma(FloatVector.fromArray(F, x, xb + k), block);
                block = toFloats(high(q)).fma(FloatVector.fromArray(F, x, xb + 16 + k), block);
            }
            acc = block.fma(FloatVector.broadcast(F, halfScale(u8(data, o))), acc);
        }
        return Simd.sum(acc);
    }

    /** Fewer than 16 lanes: each block decoded to floats first, then multiplied with vectors. */
    private float dotRowDecoded(long row, float[] x, int xOff) {
        float[] w = new float[32];
        FloatVector acc = FloatVector.zero(F);
        long o = row * rowBytes;
        for (int b = 0; b < blocksPerRow; b++, o += 17) {
            int xb = xOff + b * 32;
            for (int j = 0; j < 16; j++) {
                int q = u8(data, o + 1 + j);
                w[j] = VALUES[q & 0x0F];
                w[j + 16] = VALUES[q >>> 4];
            }
            FloatVector block = FloatVector.zero(F);
            for (int k = 0; k < 32; k += L) {
                block = FloatVector.fromArray(F, w, k).fma(FloatVector.fromArray(F, x, xb + k), block);
            }
            acc = block.fma(FloatVector.broadcast(F, halfScale(u8(data, o))), acc);
        }
        return Simd.sum(acc);
    }
}
