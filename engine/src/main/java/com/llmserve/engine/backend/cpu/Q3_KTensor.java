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
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;

/**
 * Q3_K: super-blocks of 256 as {@code {u8 hmask[32]; u8 qs[64]; u8 scales[12]; f16 d}}. Sixteen
 * groups of 16 with 6-bit signed scales (packed into 12 bytes); each weight has 2 low bits in
 * {@code qs} and a high bit in {@code hmask} whose absence subtracts 4: {@code d*(sc-32)*q}.
 */
public final class Q3_KTensor extends CpuTensor {

    private static final int KMASK1 = 0x03030303;
    private static final int KMASK2 = 0x0f0f0f0f;

    Q3_KTensor(String name, MemorySegment data, long rows, int cols) {
        super(name, GgmlType.Q3_K, data, rows, cols);
    }

    /** Unpacks the 16 6-bit scales, already minus 32. */
    private void scales(long o, int[] out) {
        int aux0 = data.get(LE_INT, o + 96);
        int aux1 = data.get(LE_INT, o + 100);
        int tmp = data.get(LE_INT, o + 104);
        int[] words = {
            (aux0 & KMASK2) | ((tmp & KMASK1) << 4),
            (aux1 & KMASK2) | (((tmp >>> 2) & KMASK1) << 4),
            ((aux0 >>> 4) & KMASK2) | (((tmp >>> 4) & KMASK1) << 4),
            ((aux1 >>> 4) & KMASK2) | (((tmp >>> 6) & KMASK1) << 4),
        };
        for (int i = 0; i < 16; i++) {
            out[i] = ((words[i / 4] >>> (8 * (i % 4))) & 0xFF) - 32;
        }
    }

    @Override
    void dequantizeBlockScalar(long o, float[] out, int off) {
        float d = f16(data, o + 108);
        int[] sc = new int[16];
        scales(o, sc);
        int y = off;
        for (int group = 0; group < 16; group++) {
            float dl = d * sc[group];
            long q = qsOf(o, group);
            long hm = o + 16 * (group & 1);
            int shift = shiftOf(group);
            int m = highBitOf(group);
            for (int l = 0; l < 16; l++) {
                int low = (u8(data, q + l) >>> shift) & 3;
                out[y++] = dl * (low - ((u8(data, hm + l) & m) != 0 ? 0 : 4));
            }
        }
    }

    @Override
    void dequantizeBlock(long o, float[] out, int off) {
        float d = f16(data, o + 108);
        int[] sc = new int[16];
        scales(o, sc);
        for (int group = 0; group < 16; group++) {
            float dl = d * sc[group];
            for (int k = 0; k < 16; k += L) {
                toFloats(values(o, group, k)).mul(dl).intoArray(out, off + group * 16 + k);
            }
        }
    }

    @Override
    float dotRow(long row, float[] x, int xOff) {
        FloatVector acc = FloatVector.zero(F);
        int[] sc = new int[16];
        long o = row * rowBytes;
        for (int b = 0; b < blocksPerRow; b++, o += 110) {
            float d = f16(data, o + 108);
            scales(o, sc);
            int xb = xOff + b * 256;
            for (int group = 0; group < 16; group++) {
                FloatVector g = FloatVector.zero(F);
                for (int k = 0; k < 16; k += L) {
                    g = toFloats(values(o, group, k)).fma(FloatVector.fromArray(F, x, xb + group * 16 + k), g);
                }
                acc = g.fma(FloatVector.broadcast(F, d * sc[group]), acc);
            }
        }
        return Simd.sum(acc);
    }

    /** Signed 3-bit values of lanes {@code k .. k+L} of a group, in [-4, 3]. */
    private ByteVector values(long o, int group, int k) {
        ByteVector low = bytes(data, qsOf(o, group) + k)
                .lanewise(VectorOperators.LSHR, shiftOf(group))
                .and((byte) 3);
        VectorMask<Byte> noHighBit = bytes(data, o + 16 * (group & 1) + k)
                .and((byte) highBitOf(group))
                .compare(VectorOperators.EQ, (byte) 0);
        return low.lanewise(VectorOperators.SUB, (byte) 4, noHighBit);
    }

    private static long qsOf(long o, int group) {
        return o + 32 + 32 * (group / 8) + 16 * (group & 1);
    }

    private static int shiftOf(int group) {
        return 2 * ((group % 8) / 2);
    }

    /** The hmask bit of a group: one bit per pair of groups, in order. */
    private static int highBitOf(int group) {
        return 1 << (group / 2);
    }
}
