package com.llmserve.engine.backend.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.UnsupportedTensorTypeException;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufTensor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every vector path against the scalar reference of its format, on random and on real weights. */
class CpuTensorTests {

    private static final int ROWS = 7;
    private static final int COLS = 512;

    @ParameterizedTest
    @EnumSource(
            names = {
                "F32", "F16", "BF16", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K",
                "MXFP4"
            })
    void vectorPathsMatchTheScalarReferenceOnRandomBlocks(GgmlType type) {
        CpuTensor t = CpuTensor.of("random", type, randomTensor(type, ROWS, COLS, new Random(type.id())), ROWS, COLS);
        assertVectorMatchesScalar(t, new Random(7));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "tiny-F16.gguf",
                "tiny-Q8_0.gguf",
                "tiny-Q6_K.gguf",
                "tiny-Q5_K_M.gguf",
                "tiny-Q5_1.gguf",
                "tiny-Q5_0.gguf",
                "tiny-Q4_K_M.gguf",
                "tiny-Q4_1.gguf",
                "tiny-Q4_0.gguf",
                "tiny-Q3_K_M.gguf",
                "tiny-Q2_K.gguf",
                "stories260K.gguf"
            })
    void vectorPathsMatchTheScalarReferenceOnRealWeights(String model) throws IOException {
        try (GgufFile f = GgufFile.open(TestData.model(model))) {
            for (GgufTensor g : f.tensors()) {
                assertVectorMatchesScalar(CpuTensor.of(g), new Random(g.name().hashCode()));
            }
        }
    }

    @Test
    void halfToFloatIsExactForEveryBitPattern() {
        VectorSpecies<Short> s = VectorSpecies.of(short.class, VectorShape.forBitSize(Simd.L * 16));
        short[] halves = new short[Simd.L];
        float[] out = new float[Simd.L];
        for (int base = 0; base < 65536; base += Simd.L) {
            for (int i = 0; i < Simd.L; i++) {
                halves[i] = (short) (base + i);
            }
            F16Tensor.halfToFloat(ShortVector.fromArray(s, halves, 0)).intoArray(out, 0);
            for (int i = 0; i < Simd.L; i++) {
                float expected = Float.float16ToFloat(halves[i]);
                if (Float.isNaN(expected)) {
                    assertThat(out[i]).as("half 0x%04x", halves[i] & 0xffff).isNaN();
                } else {
                    assertThat(Float.floatToRawIntBits(out[i]))
                            .as("half 0x%04x", halves[i] & 0xffff)
                            .isEqualTo(Float.floatToRawIntBits(expected));
                }
            }
        }
    }

    @Test
    void q4_0ScalarReferenceDecodesAKnownBlock() {
        ByteBuffer b = block(18);
        b.putShort(Float.floatToFloat16(0.5f));
        for (int j = 0; j < 16; j++) {
            b.put((byte) ((15 - j) << 4 | j));
        }
        float[] out = dequantize(GgmlType.Q4_0, b);
        for (int j = 0; j < 16; j++) {
            assertThat(out[j]).isEqualTo((j - 8) * 0.5f);
            assertThat(out[j + 16]).isEqualTo((15 - j - 8) * 0.5f);
        }
    }

    @Test
    void mxfp4ScalarReferenceDecodesKnownBlocks() {
        // e = 128: the doubled E2M1 values times 2^0; the low nibbles are elements 0..15
        ByteBuffer b = block(17).put((byte) 128);
        for (int j = 0; j < 16; j++) {
            b.put((byte) ((15 - j) << 4 | j));
        }
        float[] out = dequantize(GgmlType.MXFP4, b);
        float[] e2m1 = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6, -0f, -0.5f, -1, -1.5f, -2, -3, -4, -6};
        for (int j = 0; j < 16; j++) {
            // the OCP value of the code, times the unhalved scale 2^(128 - 127) = 2 (code 8, -0, decodes to +0)
            assertThat(out[j]).as("code %d", j).isEqualTo(e2m1[j] * 2 + 0f);
            assertThat(out[j + 16]).as("code %d", 15 - j).isEqualTo(e2m1[15 - j] * 2 + 0f);
        }
        // the smallest scales are denormal: e = 0 is 2^-128 and e = 1 is 2^-127 after halving
        for (int e : new int[] {0, 1, 2, 127, 200, 254}) {
            ByteBuffer one = block(17).put((byte) e).put((byte) 0x72); // codes 2 (value 2) and 7 (value 12)
            float[] v = dequantize(GgmlType.MXFP4, one);
            assertThat(v[0]).as("e = %d", e).isEqualTo(2 * Math.scalb(1f, e - 128));
            assertThat(v[16]).as("e = %d", e).isEqualTo(12 * Math.scalb(1f, e - 128));
        }
    }

    @Test
    void mxfp4ProductsMatchGgmlsIntegerDotWithQ8_0Activations() {
        // ggml_vec_dot_mxfp4_q8_0: per block f16(d_x) * e8m0_half(e) * sum(q_x * kvalue)
        int rows = 9;
        int cols = 1024;
        Random r = new Random(39);
        CpuTensor w = CpuTensor.of("w", GgmlType.MXFP4, randomTensor(GgmlType.MXFP4, rows, cols, r), rows, cols);
        assertThat(w.activationFormat()).isEqualTo(ActivationFormat.Q8_0);
        for (int tokens : new int[] {1, 5}) {
            float[] x = new float[tokens * cols];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) r.nextGaussian();
            }
            float[] y = new float[tokens * rows];
            w.matmul(x, tokens, y, 0, rows, 0, rows);
            MemorySegment bytes = randomTensorBytes(w);
            Q8Activations q = new Q8Activations(tokens * cols);
            q.quantizeScalar(x, 0, tokens * cols);
            for (int t = 0; t < tokens; t++) {
                for (int row = 0; row < rows; row++) {
                    double ggml = 0;
                    double magnitude = 0;
                    for (int blk = 0; blk < cols / 32; blk++) {
                        long o = ((long) row * (cols / 32) + blk) * 17;
                        int e = Byte.toUnsignedInt(bytes.get(java.lang.foreign.ValueLayout.JAVA_BYTE, o));
                        float d = q.scales[t * cols / 32 + blk] * Math.scalb(1f, e - 128);
                        int sum = 0;
                        for (int j = 0; j < 16; j++) {
                            int code =
                                    Byte.toUnsignedInt(bytes.get(java.lang.foreign.ValueLayout.JAVA_BYTE, o + 1 + j));
                            sum += q.values[t * cols + blk * 32 + j] * MXFP4Tensor.VALUES[code & 15];
                            sum += q.values[t * cols + blk * 32 + 16 + j] * MXFP4Tensor.VALUES[code >>> 4];
                            magnitude += Math.abs(q.values[t * cols + blk * 32 + j] * 12.0 * d);
                        }
                        ggml += d * sum;
                    }
                    assertThat((double) y[t * rows + row])
                            .as("%d tokens, token %d row %d", tokens, t, row)
                            .isCloseTo(ggml, within(1e-5 * magnitude + 1e-6));
                }
            }
        }
    }

    @Test
    void mxfp4BlocksTranscodeExactlyToQ8_0Blocks() {
        // what the GPU backend uploads for MXFP4: the same values as Q8_0, scales 2^-24 .. 2^15 exact
        int rows = 3;
        int cols = 256;
        MemorySegment m = randomTensor(GgmlType.MXFP4, rows, cols, new Random(40));
        m.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 0, (byte) 104); // 2^-24: the smallest half
        m.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 17, (byte) 143); // 2^15: the largest power of two
        CpuTensor mx = CpuTensor.of("mx", GgmlType.MXFP4, m, rows, cols);
        int blocks = rows * cols / 32;
        byte[] q8 = new byte[blocks * 34];
        for (int b = 0; b < blocks; b++) {
            MXFP4Tensor.blockAsQ8_0(m, b * 17L, q8, b * 34);
        }
        CpuTensor as = CpuTensor.of("q8", GgmlType.Q8_0, MemorySegment.ofArray(q8), rows, cols);
        float[] expected = new float[cols];
        float[] actual = new float[cols];
        for (int r = 0; r < rows; r++) {
            mx.dequantizeRowScalar(r, expected, 0);
            as.dequantizeRowScalar(r, actual, 0);
            assertThat(actual).as("row %d", r).containsExactly(expected);
        }
    }

    private static MemorySegment randomTensorBytes(CpuTensor w) {
        return w.data;
    }

    @Test
    void q5_0ScalarReferenceTakesTheFifthBitFromQh() {
        ByteBuffer b = block(22);
        b.putShort(Float.floatToFloat16(1f)).putInt(0x8000_0001); // element 0 and element 31 get bit 4
        for (int j = 0; j < 16; j++) {
            b.put((byte) 0xFF);
        }
        float[] out = dequantize(GgmlType.Q5_0, b);
        assertThat(out[0]).isEqualTo(31 - 16);
        assertThat(out[1]).isEqualTo(15 - 16);
        assertThat(out[31]).isEqualTo(31 - 16);
        assertThat(out[30]).isEqualTo(15 - 16);
    }

    @Test
    void q8_0AndQ4_1ScalarReferencesDecodeKnownBlocks() {
        ByteBuffer q8 = block(34).putShort(Float.floatToFloat16(0.25f));
        for (int j = 0; j < 32; j++) {
            q8.put((byte) (j - 16));
        }
        float[] out = dequantize(GgmlType.Q8_0, q8);
        for (int j = 0; j < 32; j++) {
            assertThat(out[j]).isEqualTo((j - 16) * 0.25f);
        }
        ByteBuffer q41 = block(20).putShort(Float.floatToFloat16(2f)).putShort(Float.floatToFloat16(-3f));
        for (int j = 0; j < 16; j++) {
            q41.put((byte) (j << 4 | 1));
        }
        out = dequantize(GgmlType.Q4_1, q41);
        assertThat(out[0]).isEqualTo(1 * 2f - 3f);
        assertThat(out[16 + 5]).isEqualTo(5 * 2f - 3f);
    }

    @Test
    void bf16IsTheUpperHalfOfAFloat() {
        ByteBuffer b = block(2 * 16);
        float[] values = {
            1f, -2.5f, 0f, -0f, Float.MIN_NORMAL, 3.140625f, 65504f, 1e30f, 7f, 8f, 9f, 10f, 11f, 12f, 13f, 14f
        };
        for (float v : values) {
            b.putShort((short) (Float.floatToRawIntBits(v) >>> 16));
        }
        CpuTensor t = CpuTensor.of("bf16", GgmlType.BF16, MemorySegment.ofArray(b.array()), 1, 16);
        float[] out = new float[16];
        t.dequantizeRow(0, out, 0);
        float[] truncated = values.clone();
        for (int i = 0; i < truncated.length; i++) {
            truncated[i] = Float.intBitsToFloat(Float.floatToRawIntBits(values[i]) & 0xffff0000);
        }
        assertThat(out).containsExactly(truncated);
        assertThat(out[5]).isEqualTo(3.140625f);
        assertThat(out[6]).isEqualTo(65280f);
    }

    @Test
    void unsupportedTypesAreRefusedByName() {
        assertThatThrownBy(() -> CpuTensor.of(
                        "blk.0.ffn_up.weight", GgmlType.IQ2_XS, MemorySegment.ofArray(new byte[74]), 1, 256))
                .isInstanceOf(UnsupportedTensorTypeException.class)
                .hasMessageContaining("blk.0.ffn_up.weight")
                .hasMessageContaining("IQ2_XS")
                .hasMessageContaining("Q4_K");
    }

    @Test
    void matmulComputesEveryRowForEveryToken() {
        Random r = new Random(3);
        CpuTensor w = CpuTensor.of("w", GgmlType.Q8_0, randomTensor(GgmlType.Q8_0, 5, 64, r), 5, 64);
        int tokens = 3;
        float[] x = new float[tokens * 64];
        for (int i = 0; i < x.length; i++) {
            x[i] = r.nextFloat() - 0.5f;
        }
        float[] y = new float[tokens * 5];
        w.matmul(x, tokens, y, 0, 5, 0, 5);
        float[] quantized = PreparedInput.of(w, x, tokens).values();
        for (int t = 0; t < tokens; t++) {
            for (int row = 0; row < 5; row++) {
                assertThat(y[t * 5 + row]).isCloseTo((float) w.dotScalar(row, quantized, t * 64), within(1e-4f));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            names = {
                "F32", "F16", "BF16", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K",
                "MXFP4"
            })
    void tiledBatchMatmulMatchesPerTokenDotProducts(GgmlType type) {
        // 37 rows: a full tile and a ragged one; 2304 columns: two column chunks, the second partial
        int rows = 37;
        int cols = 2304;
        Random r = new Random(type.id() * 31L);
        CpuTensor w = CpuTensor.of("w", type, randomTensor(type, rows, cols, r), rows, cols);
        int tokens = 7;
        float[] x = new float[tokens * cols];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) r.nextGaussian();
        }
        int stride = rows + 5;
        float[] y = new float[tokens * stride];
        w.matmul(x, tokens, y, 3, stride, 0, rows);
        float[] quantized = PreparedInput.of(w, x, tokens).values();
        for (int t = 0; t < tokens; t++) {
            for (int row = 0; row < rows; row++) {
                double reference = w.dotScalar(row, quantized, t * cols);
                assertThat((double) y[t * stride + 3 + row])
                        .as("%s token %d row %d", type, t, row)
                        .isCloseTo(reference, within(1e-5 * magnitude(w, row, quantized, t * cols) + 1e-6));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"Q4_0", "Q8_0"})
    void packedLayoutsMatchTheZeroCopyLayout(GgmlType type) {
        assumeTrue(PackedRows.available(), "the packed layout needs 16 float lanes");
        int rows = 53;
        int cols = 2304;
        Random r = new Random(9);
        MemorySegment data = randomTensor(type, rows, cols, r);
        CpuTensor plain = CpuTensor.of("plain", type, data, rows, cols);
        CpuTensor packed = CpuTensor.of("packed", type, data, rows, cols);
        try (Arena arena = Arena.ofConfined()) {
            assertThat(packed.pack(arena)).isTrue();
            for (int tokens : new int[] {1, 2, 3, 5, 9}) {
                float[] x = new float[tokens * cols];
                for (int i = 0; i < x.length; i++) {
                    x[i] = (float) r.nextGaussian();
                }
                // both layouts multiply with the same 8-bit activations: compare with the exact product
                float[] reference = PreparedInput.of(plain, x, tokens).values();
                float[] actual = new float[tokens * rows];
                packed.matmul(x, tokens, actual, 0, rows, 0, rows);
                for (int i = 0; i < actual.length; i++) {
                    int row = i % rows;
                    int off = (i / rows) * cols;
                    assertThat(actual[i])
                            .as("%d tokens, output %d", tokens, i)
                            .isCloseTo(
                                    (float) plain.dotScalar(row, reference, off),
                                    within(2e-5f * magnitude(plain, row, reference, off) + 1e-5f));
                }
            }
        }
    }

    @Test
    void activationsQuantizeAsGgmlDoes() {
        float[] x = new float[32];
        for (int i = 0; i < 32; i++) {
            x[i] = (i - 10) * 0.5f;
        }
        Q8Activations q = new Q8Activations(32);
        q.quantize(x, 0, 32);
        // amax 10.5: scale 127/10.5; x = -5.0 -> -60.476 -> -60; x = 2.5 -> 30.238 -> 30
        assertThat(q.values[0]).isEqualTo((short) -60);
        assertThat(q.values[15]).isEqualTo((short) 30);
        assertThat(q.values[31]).isEqualTo((short) 127);
        assertThat(q.scales[0]).isEqualTo(Float.float16ToFloat(Float.floatToFloat16(10.5f / 127)));
        int sum = 0;
        for (short v : q.values) {
            sum += v;
        }
        assertThat(q.sums[0]).isEqualTo(sum);
    }

    @Test
    void vectorQuantizationMatchesTheScalarOne() {
        int n = 32 * 64;
        float[] x = new float[n];
        Random r = new Random(7);
        for (int i = 0; i < n; i++) {
            x[i] = (float) r.nextGaussian() * (1 + i / 256);
        }
        Arrays.fill(x, 64, 96, 0f); // an all-zero block
        for (int j = 0; j < 32; j++) { // halves exactly: amax 127 makes the scale 1, so k + 0.5 must round to even
            x[96 + j] = j == 0 ? 127f : j - 16.5f;
        }
        Q8Activations vector = new Q8Activations(n);
        Q8Activations scalar = new Q8Activations(n);
        vector.quantize(x, 0, n);
        scalar.quantizeScalar(x, 0, n);
        assertThat(vector.values).containsExactly(scalar.values);
        assertThat(vector.scales).containsExactly(scalar.scales);
        assertThat(vector.sums).containsExactly(scalar.sums);
        assertThat(vector.values[96 + 1]).isEqualTo((short) -16); // -15.5 -> -16
        assertThat(vector.values[96 + 2]).isEqualTo((short) -14); // -14.5 -> -14
        float[] restored = new float[n];
        vector.dequantize(restored, 0, n);
        for (int i = 0; i < n; i++) {
            assertThat(restored[i]).isEqualTo(scalar.values[i] * scalar.scales[i / 32]);
        }
    }

    @Test
    void kQuantActivationsRoundTripAsQuantizeRowQ8K() {
        float[] x = new float[256];
        for (int i = 0; i < 256; i++) {
            x[i] = (float) Math.sin(i) * 3;
        }
        x[17] = -4f; // the largest magnitude is negative: the scale takes its sign
        float[] out = new float[256];
        Q8Activations.roundTripQ8K(x, 0, 256, out);
        float d = 1 / (-127f / -4f);
        assertThat(out[17]).isEqualTo(-127 * d);
        assertThat(out[1]).isEqualTo(Math.round(x[1] / d) * d);
        for (int i = 0; i < 256; i++) {
            assertThat(Math.abs(out[i] - x[i])).isLessThanOrEqualTo(d / 2 + 1e-6f);
        }
    }

    /** Sum of |w_i x_i|: the scale float rounding errors of a dot product grow with. */
    private static float magnitude(CpuTensor w, int row, float[] x, int off) {
        float[] v = new float[w.cols()];
        w.dequantizeRowScalar(row, v, 0);
        double m = 0;
        for (int i = 0; i < v.length; i++) {
            m += Math.abs((double) v[i] * x[off + i]);
        }
        return (float) m;
    }

    private static void assertVectorMatchesScalar(CpuTensor t, Random r) {
        int cols = t.cols();
        float[] scalar = new float[cols];
        float[] vector = new float[cols];
        float[] x = new float[cols];
        for (int i = 0; i < cols; i++) {
            x[i] = (float) r.nextGaussian();
        }
        long rows = Math.min(t.rows(), 16);
        for (long row = 0; row < rows; row++) {
            long sampled = t.rows() <= 16 ? row : (row * 7919) % t.rows();
            t.dequantizeRowScalar(sampled, scalar, 0);
            t.dequantizeRow(sampled, vector, 0);
            assertThat(vector).as("%s row %d dequantized", t, sampled).containsExactly(scalar);
            double reference = t.dotScalar(sampled, x, 0);
            double magnitude = 0;
            for (int i = 0; i < cols; i++) {
                magnitude += Math.abs((double) scalar[i] * x[i]);
            }
            assertThat((double) t.dot(sampled, x, 0))
                    .as("%s row %d dot", t, sampled)
                    .isCloseTo(reference, within(1e-5 * magnitude + 1e-30));
        }
    }

    /** Random bytes with sane f16 scales where the format has them, so that no value is NaN or infinite. */
    static MemorySegment randomTensor(GgmlType type, int rows, int cols, Random r) {
        int blocks = rows * cols / type.blockSize();
        ByteBuffer b = ByteBuffer.allocate(blocks * type.typeSize()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < blocks; i++) {
            int at = i * type.typeSize();
            for (int k = 0; k < type.typeSize(); k++) {
                b.put(at + k, (byte) r.nextInt(256));
            }
            switch (type) {
                case F32 -> b.putFloat(at, (float) r.nextGaussian());
                case F16 -> b.putShort(at, Float.floatToFloat16((float) r.nextGaussian()));
                case BF16 -> b.putShort(at, (short) (Float.floatToRawIntBits((float) r.nextGaussian()) >>> 16));
                case Q4_0, Q5_0, Q8_0 -> b.putShort(at, scale(r));
                case Q4_1, Q5_1 -> b.putShort(at, scale(r)).putShort(at + 2, scale(r));
                case Q2_K -> b.putShort(at + 80, scale(r)).putShort(at + 82, scale(r));
                case Q3_K -> b.putShort(at + 108, scale(r));
                case Q4_K, Q5_K -> b.putShort(at, scale(r)).putShort(at + 2, scale(r));
                case Q6_K -> b.putShort(at + 208, scale(r));
                case MXFP4 -> b.put(at, (byte) (118 + r.nextInt(8))); // scales 2^-10 .. 2^-3
                default -> throw new IllegalArgumentException(type.toString());
            }
        }
        MemorySegment seg = Arena.ofAuto().allocate(b.capacity(), 64);
        seg.copyFrom(MemorySegment.ofArray(b.array()));
        return seg;
    }

    private static short scale(Random r) {
        return Float.floatToFloat16((float) (r.nextGaussian() * 0.01));
    }

    private static ByteBuffer block(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static float[] dequantize(GgmlType type, ByteBuffer block) {
        CpuTensor t = CpuTensor.of("known", type, MemorySegment.ofArray(block.array()), 1, type.blockSize());
        float[] scalar = new float[type.blockSize()];
        float[] vector = new float[type.blockSize()];
        t.dequantizeRowScalar(0, scalar, 0);
        t.dequantizeRow(0, vector, 0);
        assertThat(vector).containsExactly(scalar);
        return scalar;
    }
}
