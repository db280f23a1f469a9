package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufTensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

/**
 * GGUF tensors of random blocks: random quant bytes with f16 scales in a sane range (so no block
 * decodes to NaN or infinity), gaussian floats for F16/BF16/F32. Memory lives as long as the JVM.
 */
final class RandomTensors {

    private RandomTensors() {}

    static GgufTensor tensor(String name, GgmlType type, int rows, int cols, Random r) {
        long bytes = type.byteSize((long) rows * cols);
        MemorySegment m = Arena.global().allocate(bytes, 32);
        switch (type) {
            case F32 -> {
                for (long i = 0; i < (long) rows * cols; i++) {
                    m.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) (r.nextGaussian() * 0.1));
                }
            }
            case F16 -> {
                for (long i = 0; i < (long) rows * cols; i++) {
                    m.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, Float.floatToFloat16((float)
                            (r.nextGaussian() * 0.1)));
                }
            }
            case BF16 -> {
                for (long i = 0; i < (long) rows * cols; i++) {
                    float v = (float) (r.nextGaussian() * 0.1);
                    m.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, (short) (Float.floatToRawIntBits(v) >>> 16));
                }
            }
            default -> {
                byte[] random = new byte[(int) bytes];
                r.nextBytes(random);
                MemorySegment.copy(random, 0, m, ValueLayout.JAVA_BYTE, 0, random.length);
                int size = type.typeSize();
                for (long b = 0; b < bytes / size; b++) {
                    long o = b * size;
                    switch (type) {
                        case Q4_0, Q8_0, Q5_0 -> scale(m, o, r);
                        case Q4_1, Q5_1, Q4_K, Q5_K -> {
                            scale(m, o, r);
                            scale(m, o + 2, r);
                        }
                        case Q2_K -> {
                            scale(m, o + 80, r);
                            scale(m, o + 82, r);
                        }
                        case Q3_K -> scale(m, o + 108, r);
                        case Q6_K -> scale(m, o + 208, r);
                        // E8M0 scales of 2^-9 .. 2^-6 (values up to 12 times that)
                        case MXFP4 -> m.set(ValueLayout.JAVA_BYTE, o, (byte) (119 + r.nextInt(4)));
                        default -> throw new IllegalArgumentException("no random blocks for " + type);
                    }
                }
            }
        }
        return new GgufTensor(name, type, new long[] {cols, rows}, 0, m);
    }

    private static void scale(MemorySegment m, long offset, Random r) {
        m.set(ValueLayout.JAVA_SHORT_UNALIGNED, offset, Float.floatToFloat16((float) (0.002 + 0.01 * r.nextDouble())));
    }

    static float[] gaussian(int n, Random r) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) r.nextGaussian();
        }
        return x;
    }
}
