package com.llmserve.engine.backend.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.llmserve.engine.gguf.GgmlType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The native kernels against Java definitions of what they compute: activations quantized bit for
 * bit as {@link Q8Activations}; every variant's products bit for bit the integer-dot-then-FMA
 * formula of the native source (the same for every batch), and close to the exact product of the
 * dequantized weights and the quantized activations. Skipped where the library cannot run.
 */
class NativeKernelsTests {

    private static List<NativeKernels> variants() {
        assumeTrue(NativeKernels.best().isPresent(), () -> "no native kernels here: " + NativeKernels.unavailable());
        List<NativeKernels> all = new ArrayList<>();
        for (NativeKernels.Isa isa : NativeKernels.Isa.values()) {
            if (isa.level <= NativeKernels.best().get().level) {
                all.add(NativeKernels.of(isa));
            }
        }
        return all;
    }

    private static float[] gaussian(int n, Random r) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) r.nextGaussian() * (i % 97 == 0 ? 20 : 1);
        }
        return x;
    }

    @Test
    void activationsQuantizeBitForBitAsTheJavaKernels() {
        for (NativeKernels k : variants()) {
            Random r = new Random(3);
            int n = 32 * 41;
            float[] x = gaussian(n, r);
            Arrays.fill(x, 64, 96, 0f); // a block of zeros: scale 0, values 0
            x[200] = 1e-30f; // tiny magnitudes round to an f16 subnormal or zero
            x[5 * 32 + 7] = -3e4f;
            Q8Activations expected = new Q8Activations(n);
            expected.quantizeScalar(x, 0, n);
            NativeQ8 actual = new NativeQ8(n);
            // in two calls, as the backend splits a batch over its threads
            k.quantizeQ8_0(x, 0, 32 * 20, actual);
            k.quantizeQ8_0(x, 32 * 20, n, actual);
            for (int i = 0; i < n; i++) {
                assertThat(actual.values[i]).as("%s value %d", k, i).isEqualTo((byte) expected.values[i]);
            }
            assertThat(actual.scales).as("%s scales", k).containsExactly(expected.scales);
            assertThat(actual.sums).as("%s sums", k).containsExactly(expected.sums);
        }
    }

    @Test
    void kQuantActivationsQuantizeAsGgmlQuantizeRowQ8K() {
        for (NativeKernels k : variants()) {
            Random r = new Random(5);
            int n = 256 * 5;
            float[] x = gaussian(n, r);
            Arrays.fill(x, 256, 512, 0f); // a block of zeros
            x[600] = 9f; // a tie in magnitude, the positive one first: it sets the sign
            x[601] = -9f;
            x[1000] = -50f; // the largest magnitude negative
            NativeQ8 q = new NativeQ8(ActivationFormat.Q8_K, n);
            k.quantize(x, 0, 512, q);
            k.quantize(x, 512, n, q);
            float[] restored = new float[n];
            Q8Activations.roundTripQ8K(x, 0, n, restored);
            for (int b = 0; b < n / 256; b++) {
                float max = 0;
                float amax = 0;
                for (int j = 0; j < 256; j++) {
                    float ax = Math.abs(x[256 * b + j]);
                    if (ax > amax) {
                        amax = ax;
                        max = x[256 * b + j];
                    }
                }
                float iscale = amax == 0 ? 0 : -127f / max;
                assertThat(q.scales[b]).as("%s block %d scale", k, b).isEqualTo(amax == 0 ? 0f : 1 / iscale);
                for (int j = 0; j < 256; j++) {
                    int expected = amax == 0 ? 0 : Math.min(127, (int) Math.rint(iscale * x[256 * b + j]));
                    assertThat(q.values[256 * b + j])
                            .as("%s value %d", k, 256 * b + j)
                            .isEqualTo((byte) expected);
                    assertThat(q.scales[b] * q.values[256 * b + j]).isEqualTo(restored[256 * b + j]);
                }
                for (int j = 0; j < 8; j++) {
                    int s32 = q.sums[16 * b + 2 * j] + q.sums[16 * b + 2 * j + 1];
                    assertThat(64 * q.split[16 * b + j] + q.split[16 * b + 8 + j])
                            .as("%s block %d split sum %d", k, b, j)
                            .isEqualTo(s32);
                    assertThat(q.split[16 * b + 8 + j]).isBetween((byte) 0, (byte) 63);
                }
                for (int s16 = 0; s16 < 16; s16++) {
                    int sum = 0;
                    for (int j = 0; j < 16; j++) {
                        sum += q.values[256 * b + 16 * s16 + j];
                    }
                    assertThat(q.sums[16 * b + s16]).isEqualTo(sum);
                }
            }
        }
    }

    /** What every variant computes for one row and token: per block exact integer sums, then FMAs in block order. */
    private static float reference(CpuTensor w, int row, NativeQ8 x, int t) {
        return switch (w.type()) {
            case Q4_K -> referenceQ4_K(w, row, x, t);
            case Q6_K -> referenceQ6_K(w, row, x, t);
            default -> referenceQ8(w, row, x, t);
        };
    }

    private static float referenceQ4_K(CpuTensor w, int row, NativeQ8 x, int t) {
        int blocks = w.cols() / 256;
        float acc = 0f;
        for (int b = 0; b < blocks; b++) {
            long o = w.blockOffset(row, b);
            float d = Simd.f16(w.data, o);
            float dmin = Simd.f16(w.data, o + 2);
            int[] q = new int[12];
            for (int i = 0; i < 12; i++) {
                q[i] = Simd.u8(w.data, o + 4 + i);
            }
            int sumi = 0;
            int summ = 0;
            for (int j = 0; j < 8; j++) {
                int sc = j < 4 ? q[j] & 63 : (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
                int m = j < 4 ? q[j + 4] & 63 : (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
                int isum = 0;
                for (int l = 0; l < 32; l++) {
                    int byteAt = Simd.u8(w.data, o + 16 + 32 * (j / 2) + l);
                    int v = (j & 1) == 0 ? byteAt & 0x0F : byteAt >>> 4;
                    isum += v * x.values[t * w.cols() + 256 * b + 32 * j + l];
                }
                sumi += sc * isum;
                int tb = t * blocks + b;
                summ += m * (x.sums[16 * tb + 2 * j] + x.sums[16 * tb + 2 * j + 1]);
            }
            float dx = x.scales[t * blocks + b];
            acc = Math.fma((float) sumi, d * dx, acc);
            acc = Math.fma(-(float) summ, dmin * dx, acc);
        }
        return acc;
    }

    private static float referenceQ6_K(CpuTensor w, int row, NativeQ8 x, int t) {
        int blocks = w.cols() / 256;
        float acc = 0f;
        for (int b = 0; b < blocks; b++) {
            long o = w.blockOffset(row, b);
            int sumi = 0;
            for (int j = 0; j < 16; j++) {
                int sc = Simd.i8(w.data, o + 192 + j);
                int isum = 0;
                for (int l = 0; l < 16; l++) {
                    int e = 16 * j + l;
                    isum += (q6(w, o, e) - 32) * x.values[t * w.cols() + 256 * b + e];
                }
                sumi += sc * isum;
            }
            acc = Math.fma((float) sumi, Simd.f16(w.data, o + 208) * x.scales[t * blocks + b], acc);
        }
        return acc;
    }

    /** Element {@code e} of the Q6_K block at {@code o}, 0..63 (ggml's dequantize_row_q6_K). */
    private static int q6(CpuTensor w, long o, int e) {
        int n = e / 128;
        int r = e % 128;
        int l = r % 32;
        int part = r / 32;
        int ql = Simd.u8(w.data, o + 64L * n + l + (part % 2 == 1 ? 32 : 0));
        int qh = Simd.u8(w.data, o + 128 + 32L * n + l);
        int low = part < 2 ? ql & 0x0F : ql >>> 4;
        return low | (((qh >>> (2 * part)) & 3) << 4);
    }

    /** Q4_0, Q8_0 and MXFP4 (ggml_vec_dot_mxfp4_q8_0: the codes' doubled values, scaled by 2^(e - 128)). */
    private static float referenceQ8(CpuTensor w, int row, NativeQ8 x, int t) {
        int blocks = w.cols() / 32;
        boolean mx = w.type() == GgmlType.MXFP4;
        float acc = 0f;
        for (int b = 0; b < blocks; b++) {
            long o = w.blockOffset(row, b);
            float dw = mx ? MXFP4Tensor.halfScale(Simd.u8(w.data, o)) : Simd.f16(w.data, o);
            long codes = o + (mx ? 1 : 2);
            int isum = 0;
            for (int j = 0; j < 32; j++) {
                int nibble = j < 16 ? Simd.u8(w.data, codes + j) & 0x0F : Simd.u8(w.data, codes + j - 16) >>> 4;
                int q =
                        switch (w.type()) {
                            case Q4_0 -> nibble - 8;
                            case MXFP4 -> MXFP4Tensor.VALUES[nibble];
                            default -> Simd.i8(w.data, o + 2 + j);
                        };
                isum += q * x.values[t * w.cols() + 32 * b + j];
            }
            acc = Math.fma((float) isum, dw * x.scales[t * blocks + b], acc);
        }
        return acc;
    }

    @ParameterizedTest
    @EnumSource(names = {"Q4_0", "Q8_0", "Q4_K", "Q6_K", "MXFP4"})
    void everyVariantComputesTheSameBitsForEveryBatch(GgmlType type) {
        List<NativeKernels> variants =
                variants().stream().filter(k -> k.supports(type)).toList();
        assumeTrue(!variants.isEmpty(), () -> "no native " + type + " kernels here");
        ActivationFormat format = type.blockSize() == 256 ? ActivationFormat.Q8_K : ActivationFormat.Q8_0;
        Random r = new Random(type.id());
        int rows = 53; // three whole groups of 16 and a part
        int cols = 256 * 9;
        MemorySegment data = CpuTensorTests.randomTensor(type, rows, cols, r);
        CpuTensor plain = CpuTensor.of("plain", type, data, rows, cols);
        int maxTokens = 13; // an 8-token tile, a 2-token one and singles on AVX-512
        float[] x = gaussian(maxTokens * cols, r);
        try (Arena arena = Arena.ofConfined()) {
            for (NativeKernels k : variants) {
                NativeRows packed = NativeRows.pack(k, type, data, rows, cols, plain.rowBytes, arena);
                NativeQ8 q = new NativeQ8(format, maxTokens * cols);
                k.quantize(x, 0, x.length, q);
                float[] all = new float[maxTokens * rows];
                packed.gemm(q, maxTokens, all, 0, rows, 0, rows);
                for (int t = 0; t < maxTokens; t++) {
                    for (int row = 0; row < rows; row++) {
                        float expected = reference(plain, row, q, t);
                        assertThat(all[t * rows + row])
                                .as("%s, %d tokens: token %d row %d", k, maxTokens, t, row)
                                .isEqualTo(expected);
                    }
                }
                // every token alone, and the rows in two calls (as two threads take them): the same bits
                for (int t = 0; t < maxTokens; t++) {
                    NativeQ8 one = new NativeQ8(format, cols);
                    k.quantize(Arrays.copyOfRange(x, t * cols, (t + 1) * cols), 0, cols, one);
                    float[] y = new float[rows + 5];
                    packed.gemm(one, 1, y, 5, rows, 0, 32);
                    packed.gemm(one, 1, y, 5, rows, 32, rows);
                    assertThat(Arrays.copyOfRange(y, 5, 5 + rows))
                            .as("%s token %d alone", k, t)
                            .containsExactly(Arrays.copyOfRange(all, t * rows, (t + 1) * rows));
                    float[] fromBatch = new float[rows];
                    packed.gemm(q, t, 1, fromBatch, 0, rows, 0, rows);
                    assertThat(fromBatch)
                            .as("%s token %d taken from the batch", k, t)
                            .containsExactly(Arrays.copyOfRange(all, t * rows, (t + 1) * rows));
                }
                // and close to the exact product of the dequantized weights and quantized activations
                float[] restored = new float[q.values.length];
                for (int i = 0; i < restored.length; i++) {
                    restored[i] = q.values[i] * q.scales[i / format.blockSize()];
                }
                for (int t = 0; t < maxTokens; t++) {
                    for (int row = 0; row < rows; row++) {
                        double exact = plain.dotScalar(row, restored, t * cols);
                        assertThat((double) all[t * rows + row])
                                .isCloseTo(exact, within(1e-4 * Math.abs(exact) + 1e-3));
                    }
                }
            }
        }
    }

    @Test
    void cachedHalvesWidenAsTheJavaPathWidensThem() {
        for (NativeKernels k : variants()) {
            Random r = new Random(11);
            int hd = 68; // 8 at a time and a tail of 4
            MemorySegment cache = Arena.ofAuto().allocate(2L * hd * 40, 64);
            for (long i = 0; i < hd * 40L; i++) {
                // every finite half and the infinities: subnormals, zeros of both signs, the largest
                short h = (short) r.nextInt(1 << 16);
                if ((h & 0x7c00) == 0x7c00) {
                    h = (short) ((h & 0x8000) | 0x7c00); // no NaNs: F16C may quiet their payload
                }
                cache.setAtIndex(java.lang.foreign.ValueLayout.JAVA_SHORT, i, h);
            }
            long[] offsets = new long[64];
            int count = 9;
            for (int i = 0; i < count; i++) {
                offsets[i] = (long) ((i * 7) % 39) * hd + (i % 2);
            }
            float[] actual = new float[count * hd];
            k.widenHalves(cache, offsets, count, hd, actual);
            float[] expected = new float[count * hd];
            for (int i = 0; i < count; i++) {
                FloatMath.widenHalves(cache, offsets[i], expected, i * hd, hd);
            }
            assertThat(actual).as("%s", k).containsExactly(expected);
            long[] outside = {40L * hd - hd + 1};
            assertThatThrownBy(() -> k.widenHalves(cache, outside, 1, hd, new float[hd]))
                    .isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    /** A cache of {@code slots} rows of {@code kvDim} random halves (no NaNs or infinities). */
    private static MemorySegment randomHalves(int slots, int kvDim, Random r) {
        MemorySegment cache = Arena.ofAuto().allocate(2L * slots * kvDim, 64);
        for (long i = 0; i < (long) slots * kvDim; i++) {
            cache.setAtIndex(ValueLayout.JAVA_SHORT, i, Float.floatToFloat16((float) r.nextGaussian()));
        }
        return cache;
    }

    @Test
    void attentionScoresAreDotProductsWhateverPositionsACallCovers() {
        for (NativeKernels k : variants()) {
            for (int hd : new int[] {64, 80, 128}) {
                Random r = new Random(hd);
                int kvDim = 3 * hd;
                int count = 37;
                int group = 3;
                MemorySegment cache = randomHalves(64, kvDim, r);
                long[] offsets = new long[count];
                for (int i = 0; i < count; i++) {
                    offsets[i] = (long) ((i * 11) % 64) * kvDim + hd;
                }
                float[] q = gaussian(group * hd + 5, r);
                float[] all = new float[group * count];
                k.attentionScores(cache, offsets, 0, count, hd, q, 5, group, 0.125f, all, 0, count);
                float[] widened = new float[hd];
                for (int g = 0; g < group; g++) {
                    for (int i = 0; i < count; i++) {
                        FloatMath.widenHalves(cache, offsets[i], widened, 0, hd);
                        double dot = 0;
                        double size = 0;
                        for (int d = 0; d < hd; d++) {
                            dot += (double) q[5 + g * hd + d] * widened[d];
                            size += Math.abs((double) q[5 + g * hd + d] * widened[d]);
                        }
                        assertThat((double) all[g * count + i])
                                .as("%s hd %d head %d position %d", k, hd, g, i)
                                .isCloseTo(0.125 * dot, within(1e-6 * size));
                    }
                }
                // positions 5..24 alone, into a wider score row: each score the same bits
                float[] part = new float[group * 30];
                k.attentionScores(cache, offsets, 5, 20, hd, q, 5, group, 0.125f, part, 0, 30);
                for (int g = 0; g < group; g++) {
                    for (int i = 0; i < 20; i++) {
                        assertThat(part[g * 30 + i]).isEqualTo(all[g * count + 5 + i]);
                    }
                }
            }
        }
    }

    @Test
    void attentionValuesAddAsFloatMathsWeightedSum() {
        for (NativeKernels k : variants()) {
            for (int hd : new int[] {64, 128, 256}) {
                Random r = new Random(hd + 1);
                int kvDim = 2 * hd;
                int count = 29;
                int group = 5;
                MemorySegment cache = randomHalves(40, kvDim, r);
                long[] offsets = new long[count + 3];
                for (int i = 0; i < offsets.length; i++) {
                    offsets[i] = (long) ((i * 7) % 40) * kvDim;
                }
                float[] w = gaussian(group * count, r);
                float[] actual = gaussian(group * hd + 2, r);
                float[] expected = actual.clone();
                k.attentionValues(cache, offsets, 3, count, hd, w, 0, count, group, actual, 2);
                float[] rows = new float[count * hd];
                for (int i = 0; i < count; i++) {
                    FloatMath.widenHalves(cache, offsets[3 + i], rows, i * hd, hd);
                }
                for (int g = 0; g < group; g++) {
                    FloatMath.weightedSum(w, g * count, count, rows, 0, hd, expected, 2 + g * hd, hd);
                }
                assertThat(actual).as("%s hd %d", k, hd).containsExactly(expected);
            }
        }
    }

    @Test
    void attentionSoftmaxRoundsTheJavaPathsWeights() {
        for (NativeKernels k : variants()) {
            Random r = new Random(9);
            int count = 45;
            int group = 4;
            float[] sinks = {0.5f, -2f, 9f, 0f, 1f};
            for (float[] heads : new float[][] {null, sinks}) {
                float[] scores = gaussian(group * 50, r);
                for (int i = 0; i < scores.length; i++) {
                    scores[i] *= 3;
                }
                float[] expected = scores.clone();
                k.attentionSoftmax(scores, 2, 50, count, group, heads, 1);
                for (int g = 0; g < group; g++) {
                    int at = 2 + g * 50;
                    float max = FloatMath.max(expected, at, count);
                    if (heads != null) {
                        max = Math.max(max, heads[1 + g]);
                    }
                    float sum = FloatMath.expMinusMax(expected, at, count, max);
                    if (heads != null) {
                        sum += Simd.exp(heads[1 + g] - max);
                    }
                    double total = 0;
                    for (int i = 0; i < count; i++) {
                        float w = Float.float16ToFloat(Float.floatToFloat16(expected[at + i] / sum));
                        // the sums' orders differ: a weight may round to the neighbouring half
                        assertThat(scores[at + i]).isCloseTo(w, within(halfUlp(w)));
                        total += scores[at + i];
                    }
                    assertThat(total).isLessThanOrEqualTo(1.01);
                    if (heads == null) {
                        assertThat(total).isGreaterThan(0.99);
                    }
                }
                assertThat(scores[0]).isEqualTo(expected[0]);
                assertThat(scores[2 + count]).isEqualTo(expected[2 + count]);
            }
        }
    }

    /** The spacing of halves at {@code w} (subnormal halves: 2^-24). */
    private static float halfUlp(float w) {
        return Math.max(Math.scalb(1f, Math.getExponent(w) - 10), Math.scalb(1f, -24));
    }

    @Test
    void attentionOutsideItsArraysIsRefused() {
        NativeKernels k = variants().getFirst();
        MemorySegment cache = randomHalves(4, 64, new Random(2));
        long[] offsets = {0, 64, 128, 4 * 64 - 63};
        assertThatThrownBy(() -> NativeKernels.checkRows(cache, offsets, 4, 64))
                .isInstanceOf(IndexOutOfBoundsException.class);
        long[] inside = {0, 64, 128, 192};
        float[] q = new float[64];
        assertThatThrownBy(() -> k.attentionScores(cache, inside, 1, 4, 64, q, 0, 1, 1f, new float[4], 0, 4))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> k.attentionScores(cache, inside, 0, 4, 64, q, 1, 1, 1f, new float[4], 0, 4))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> k.attentionScores(cache, inside, 0, 4, 64, q, 0, 1, 1f, new float[3], 0, 4))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> k.attentionValues(cache, inside, 0, 4, 64, new float[8], 0, 4, 2, new float[127], 0))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(
                        () -> k.attentionScores(cache, inside, 0, 4, 60, new float[60], 0, 1, 1f, new float[4], 0, 4))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> k.attentionSoftmax(new float[8], 0, 4, 4, 2, new float[1], 0))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void productsOutsideTheirArraysAreRefused() {
        NativeKernels k = variants().getFirst();
        int rows = 32;
        int cols = 64;
        MemorySegment data = CpuTensorTests.randomTensor(GgmlType.Q8_0, rows, cols, new Random(1));
        try (Arena arena = Arena.ofConfined()) {
            NativeRows packed = NativeRows.pack(k, GgmlType.Q8_0, data, rows, cols, 2 * 34, arena);
            NativeQ8 q = new NativeQ8(2 * cols);
            assertThatThrownBy(() -> packed.gemm(q, 3, new float[3 * rows], 0, rows, 0, rows))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> packed.gemm(q, 2, new float[2 * rows - 1], 0, rows, 0, rows))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> packed.gemm(q, 1, new float[rows], 0, rows, 8, rows))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> packed.gemm(q, 1, 2, new float[2 * rows], 0, rows, 0, rows))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> packed.gemm(q, -1, 1, new float[rows], 0, rows, 0, rows))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> k.quantize(new float[64], 0, 96, q)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> k.quantize(new float[256], 0, 256, q))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> k.quantize(new float[64], 16, 48, q))
                    .isInstanceOf(IndexOutOfBoundsException.class);
        }
    }
}
