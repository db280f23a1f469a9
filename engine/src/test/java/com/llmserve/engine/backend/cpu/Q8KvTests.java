package com.llmserve.engine.backend.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The Q8_0 KV cache's quantizer against ggml's {@code quantize_row_q8_0} (x86 and reference forms). */
class Q8KvTests {

    private static final int N = 32 * 64;

    /** ggml-cpu's x86 {@code quantize_row_q8_0}: {@code id = 127 / amax}, round half to even. */
    private static void x86(float[] x, int at, byte[] q, short[] d) {
        float amax = 0;
        for (int j = 0; j < 32; j++) {
            amax = Math.max(amax, Math.abs(x[at + j]));
        }
        float id = amax != 0 ? 127f / amax : 0f;
        for (int j = 0; j < 32; j++) {
            q[at + j] = (byte) Math.rint(x[at + j] * id);
        }
        d[at / 32] = Float.floatToFloat16(amax / 127f);
    }

    /** ggml's {@code quantize_row_q8_0_ref}: {@code id = 1 / d}, {@code roundf} (half away from zero). */
    private static int ref(float x, float amax) {
        float dd = amax / 127f;
        float id = dd != 0 ? 1f / dd : 0f;
        float v = x * id;
        return (int) (Math.signum(v) * Math.floor(Math.abs(v) + 0.5f));
    }

    private static float[] randomRow(Random r) {
        float[] x = new float[N];
        for (int b = 0; b < N / 32; b++) {
            // blocks of very different magnitudes, as keys and values are (and an all-zero one)
            double scale = b == 3 ? 0 : Math.pow(10, r.nextInt(7) - 3);
            for (int j = 0; j < 32; j++) {
                x[32 * b + j] = (float) (r.nextGaussian() * scale);
            }
        }
        // exact ties of the rounding: amax 127 makes x * 127 / amax = x
        for (int j = 0; j < 32; j++) {
            x[32 * 5 + j] = j == 0 ? 127f : (j - 16) + 0.5f;
        }
        return x;
    }

    @Test
    void quantizesAsLlamaCppsCpuDoesAndDequantizesToQTimesD() {
        Random r = new Random(17);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment quants = arena.allocate(N + 64);
            MemorySegment scales = arena.allocate((N / 32 + 2) * 2L);
            for (int round = 0; round < 20; round++) {
                float[] x = randomRow(r);
                Q8Kv.quantize(x, 0, N, quants, 64, scales, 2);
                byte[] q = new byte[N];
                short[] d = new short[N / 32];
                int refDiffers = 0;
                for (int b = 0; b < N / 32; b++) {
                    x86(x, 32 * b, q, d);
                    float amax = 0;
                    for (int j = 0; j < 32; j++) {
                        amax = Math.max(amax, Math.abs(x[32 * b + j]));
                    }
                    for (int j = 0; j < 32; j++) {
                        int rq = ref(x[32 * b + j], amax);
                        assertThat(Math.abs(rq - q[32 * b + j])).isLessThanOrEqualTo(1);
                        refDiffers += rq != q[32 * b + j] ? 1 : 0;
                    }
                }
                // the two forms differ only on ties (half to even vs away) and an ulp of 1/d
                assertThat(refDiffers).isLessThanOrEqualTo(N / 100);
                for (int i = 0; i < N; i++) {
                    assertThat(quants.get(ValueLayout.JAVA_BYTE, 64 + i))
                            .as("q %d", i)
                            .isEqualTo(q[i]);
                }
                for (int b = 0; b < N / 32; b++) {
                    assertThat(scales.getAtIndex(ValueLayout.JAVA_SHORT, 2 + b)).isEqualTo(d[b]);
                }
                float[] out = new float[N + 8];
                float[] scalar = new float[N + 8];
                Q8Kv.dequantize(quants, 64, scales, 2, out, 8, N);
                Q8Kv.dequantizeScalar(quants, 64, scales, 2, scalar, 8, N);
                assertThat(out).isEqualTo(scalar);
                for (int i = 0; i < N; i++) {
                    float dd = Float.float16ToFloat(d[i / 32]);
                    assertThat(out[8 + i]).isEqualTo(q[i] * dd);
                    float amax = 0;
                    for (int j = 32 * (i / 32); j < 32 * (i / 32) + 32; j++) {
                        amax = Math.max(amax, Math.abs(x[j]));
                    }
                    // half a step, plus what rounding d to a half (a subnormal one too) moves q * d
                    float bound = 0.5f * dd + 127 * Math.abs(dd - amax / 127f) + Math.ulp(amax) * 4;
                    assertThat(Math.abs(out[8 + i] - x[i])).as("value %d", i).isLessThanOrEqualTo(bound);
                }
                for (int j = 0; j < 32; j++) {
                    assertThat(out[8 + 32 * 3 + j]).isZero();
                }
            }
        }
    }

    /** The native kernels' rows (what attention reads with them) are the Java ones, bit for bit. */
    @Test
    void theNativeRowsAreTheJavaOnes() {
        var kernels = NativeKernels.load();
        org.junit.jupiter.api.Assumptions.assumeTrue(kernels.isPresent(), "no native CPU kernels here");
        Random r = new Random(5);
        int kvDim = 128;
        int slots = 40;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment quants = arena.allocate((long) slots * kvDim, 64);
            MemorySegment scales = arena.allocate((long) slots * kvDim / 32 * 2, 64);
            float[] x = new float[kvDim];
            for (int s = 0; s < slots; s++) {
                for (int i = 0; i < kvDim; i++) {
                    x[i] = (float) (r.nextGaussian() * Math.pow(10, r.nextInt(5) - 2));
                }
                Q8Kv.quantize(x, 0, kvDim, quants, (long) s * kvDim, scales, (long) s * kvDim / 32);
            }
            int hd = 64;
            long[] offsets = new long[17];
            for (int i = 0; i < offsets.length; i++) {
                offsets[i] = (long) r.nextInt(slots) * kvDim + hd * r.nextInt(2);
            }
            float[] nat = new float[offsets.length * hd];
            float[] java = new float[offsets.length * hd];
            kernels.get().dequantQ8Rows(quants, scales, offsets, offsets.length, hd, nat);
            for (int i = 0; i < offsets.length; i++) {
                Q8Kv.dequantize(quants, offsets[i], scales, offsets[i] / 32, java, i * hd, hd);
            }
            assertThat(nat).isEqualTo(java);
        }
    }

    @Test
    void ties_roundHalfToEven() {
        float[] x = new float[32];
        x[0] = 127f;
        x[1] = 2.5f;
        x[2] = -2.5f;
        x[3] = 3.5f;
        x[4] = -0.5f;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment quants = arena.allocate(32);
            MemorySegment scales = arena.allocate(2);
            Q8Kv.quantize(x, 0, 32, quants, 0, scales, 0);
            assertThat(quants.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 127);
            assertThat(quants.get(ValueLayout.JAVA_BYTE, 1)).isEqualTo((byte) 2);
            assertThat(quants.get(ValueLayout.JAVA_BYTE, 2)).isEqualTo((byte) -2);
            assertThat(quants.get(ValueLayout.JAVA_BYTE, 3)).isEqualTo((byte) 4);
            assertThat(quants.get(ValueLayout.JAVA_BYTE, 4)).isEqualTo((byte) 0);
            assertThat(Float.float16ToFloat(scales.getAtIndex(ValueLayout.JAVA_SHORT, 0)))
                    .isEqualTo(1f);
        }
    }
}
