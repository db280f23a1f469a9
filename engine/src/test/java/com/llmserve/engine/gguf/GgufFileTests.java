package com.llmserve.engine.gguf;

import static com.llmserve.engine.gguf.GgufBuilder.le;
import static com.llmserve.engine.gguf.GgufBuilder.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.engine.TestData;
import com.llmserve.engine.gguf.GgufValue.GgufArray;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GgufFileTests {

    @TempDir
    Path dir;

    @Test
    void readsRealModelWithZeroCopyTensors() throws IOException {
        try (GgufFile f = GgufFile.open(TestData.model("stories260K.gguf"))) {
            assertThat(f.version()).isEqualTo(3);
            assertThat(f.metadata().getString("general.architecture")).isEqualTo("llama");
            assertThat(f.metadata().getInt("llama.block_count")).isEqualTo(5);
            assertThat(f.metadata().getInt("llama.embedding_length")).isEqualTo(64);
            assertThat(f.metadata().findStringArray("tokenizer.ggml.tokens"))
                    .get()
                    .satisfies(t -> assertThat(t).hasSize(512));
            assertThat(f.metadata().findFloatArray("tokenizer.ggml.scores"))
                    .get()
                    .satisfies(s -> assertThat(s).hasSize(512));
            assertThat(f.tensors()).hasSize(48);
            GgufTensor q = f.tensor("blk.0.attn_q.weight");
            assertThat(q.type()).isEqualTo(GgmlType.F32);
            assertThat(q.shape()).containsExactly(64, 64);
            assertThat(q.data().isMapped()).isTrue();
            assertThat(q.data().isReadOnly()).isTrue();
            assertThat(q.byteSize()).isEqualTo(64 * 64 * 4);
            assertThat(q.offset() % f.alignment()).isZero();
            assertThat(q.offset() + q.byteSize()).isLessThanOrEqualTo(f.fileSize());
        }
    }

    @Test
    void readsEveryQuantizedModelInShared() throws IOException {
        try (var files = Files.list(TestData.shared().resolve("models"))) {
            for (Path p : files.filter(x -> x.toString().endsWith(".gguf")).toList()) {
                try (GgufFile f = GgufFile.open(p)) {
                    assertThat(f.tensors()).as(p.toString()).isNotEmpty();
                    long covered =
                            f.tensors().stream().mapToLong(GgufTensor::byteSize).sum();
                    assertThat(f.dataStart() + covered).as(p.toString()).isLessThanOrEqualTo(f.fileSize());
                }
            }
        }
    }

    @Test
    void readsEveryMetadataValueType() throws IOException {
        var b = new GgufBuilder()
                .kv("u8", GgufValueType.UINT8, le(1).put((byte) 200))
                .kv("i8", GgufValueType.INT8, le(1).put((byte) -5))
                .kv("u16", GgufValueType.UINT16, le(2).putShort((short) 60000))
                .kv("i16", GgufValueType.INT16, le(2).putShort((short) -300))
                .kv("u32", GgufValueType.UINT32, le(4).putInt(-1))
                .kv("i32", GgufValueType.INT32, le(4).putInt(-70000))
                .kv("f32", GgufValueType.FLOAT32, le(4).putFloat(1.5f))
                .kv("bool", GgufValueType.BOOL, le(1).put((byte) 1))
                .kv("str", GgufValueType.STRING, str("héllo ✓"))
                .kv("u64", GgufValueType.UINT64, le(8).putLong(1L << 40))
                .kv("i64", GgufValueType.INT64, le(8).putLong(-(1L << 40)))
                .kv("f64", GgufValueType.FLOAT64, le(8).putDouble(2.25))
                .kv(
                        "arr.i32",
                        GgufValueType.ARRAY,
                        le(4 + 8 + 12).putInt(5).putLong(3).putInt(1).putInt(-2).putInt(3))
                .kv(
                        "arr.u8",
                        GgufValueType.ARRAY,
                        le(4 + 8 + 2).putInt(0).putLong(2).put((byte) 255).put((byte) 1))
                .kv(
                        "arr.f32",
                        GgufValueType.ARRAY,
                        le(4 + 8 + 8).putInt(6).putLong(2).putFloat(0.5f).putFloat(-1f))
                .kv("arr.str", GgufValueType.ARRAY, concat(le(12).putInt(8).putLong(2), str("a"), str("bc")))
                .kv(
                        "arr.bool",
                        GgufValueType.ARRAY,
                        le(4 + 8 + 2).putInt(7).putLong(2).put((byte) 0).put((byte) 1))
                .kv(
                        "arr.f64",
                        GgufValueType.ARRAY,
                        le(4 + 8 + 8).putInt(12).putLong(1).putDouble(3.5))
                .kv(
                        "arr.i64",
                        GgufValueType.ARRAY,
                        le(4 + 8 + 8).putInt(11).putLong(1).putLong(-9))
                .kv(
                        "arr.i16",
                        GgufValueType.ARRAY,
                        le(4 + 8 + 4).putInt(3).putLong(2).putShort((short) -1).putShort((short) 7))
                .kv(
                        "arr.nested",
                        GgufValueType.ARRAY,
                        concat(
                                le(12).putInt(9).putLong(1),
                                le(12 + 4).putInt(4).putLong(1).putInt(42)));
        try (GgufFile f = GgufFile.open(b.writeTo(dir, "types.gguf"))) {
            GgufMetadata m = f.metadata();
            assertThat(m.getInt("u8")).isEqualTo(200);
            assertThat(m.getInt("i8")).isEqualTo(-5);
            assertThat(m.getInt("u16")).isEqualTo(60000);
            assertThat(m.getInt("i16")).isEqualTo(-300);
            assertThat(m.getLong("u32")).isEqualTo(4294967295L);
            assertThat(m.getInt("i32")).isEqualTo(-70000);
            assertThat(m.getFloat("f32")).isEqualTo(1.5f);
            assertThat(m.findBoolean("bool")).contains(true);
            assertThat(m.getString("str")).isEqualTo("héllo ✓");
            assertThat(m.getLong("u64")).isEqualTo(1L << 40);
            assertThat(m.getLong("i64")).isEqualTo(-(1L << 40));
            assertThat(m.getFloat("f64")).isEqualTo(2.25f);
            assertThat(m.findIntArray("arr.i32")).get().isEqualTo(new int[] {1, -2, 3});
            assertThat(m.findIntArray("arr.u8")).get().isEqualTo(new int[] {255, 1});
            assertThat(m.findIntArray("arr.i16")).get().isEqualTo(new int[] {-1, 7});
            assertThat(m.findIntArray("arr.i64")).get().isEqualTo(new int[] {-9});
            assertThat(m.findFloatArray("arr.f32")).get().isEqualTo(new float[] {0.5f, -1f});
            assertThat(m.findFloatArray("arr.f64")).get().isEqualTo(new float[] {3.5f});
            assertThat(m.findStringArray("arr.str")).get().isEqualTo(new String[] {"a", "bc"});
            assertThat((boolean[]) m.findArray("arr.bool").orElseThrow().values())
                    .containsExactly(false, true);
            GgufArray nested =
                    ((GgufArray[]) m.findArray("arr.nested").orElseThrow().values())[0];
            assertThat((int[]) nested.values()).containsExactly(42);
            assertThat(m.getInt("i32")).isEqualTo(-70000);
            assertThatThrownBy(() -> m.getString("u32"))
                    .isInstanceOf(GgufFormatException.class)
                    .hasMessageContaining("'u32'")
                    .hasMessageContaining("expected STRING");
            assertThatThrownBy(() -> m.getInt("u32"))
                    .isInstanceOf(GgufFormatException.class)
                    .hasMessageContaining("out of range");
            assertThatThrownBy(() -> m.getInt("missing"))
                    .isInstanceOf(GgufFormatException.class)
                    .hasMessageContaining("missing");
        }
    }

    @Test
    void readsVersion2AndVersion3() throws IOException {
        for (int v : new int[] {2, 3}) {
            Path p = tensorFile().version(v).writeTo(dir, "v" + v + ".gguf");
            try (GgufFile f = GgufFile.open(p)) {
                assertThat(f.version()).isEqualTo(v);
                assertThat(f.tensor("w").data().byteSize()).isEqualTo(34);
            }
        }
    }

    @Test
    void tensorsHonourCustomAlignment() throws IOException {
        Path p = new GgufBuilder()
                .alignment(64)
                .tensor("a", GgmlType.F32, new long[] {3}, new byte[12])
                .tensor("b", GgmlType.F32, new long[] {2, 2}, bytes(16, 7))
                .writeTo(dir, "aligned.gguf");
        try (GgufFile f = GgufFile.open(p)) {
            assertThat(f.alignment()).isEqualTo(64);
            assertThat(f.dataStart() % 64).isZero();
            assertThat(f.tensor("b").offset() - f.dataStart()).isEqualTo(64);
            assertThat(f.tensor("b").data().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0))
                    .isEqualTo((byte) 7);
        }
    }

    @Test
    void rejectsBadMagic() {
        assertRejected(tensorFile().magic(0x12345678), "not a GGUF file");
    }

    @Test
    void rejectsUnsupportedVersions() {
        assertRejected(tensorFile().version(1), "version 1 is not supported");
        assertRejected(tensorFile().version(4), "unsupported GGUF version 4");
    }

    @Test
    void rejectsAbsurdCounts() {
        assertRejected(tensorFile().forceTensorCount(Long.MAX_VALUE), "tensor count");
        assertRejected(tensorFile().forceTensorCount(-1), "tensor count");
        assertRejected(new GgufBuilder().forceKvCount(1L << 60), "metadata count");
    }

    @Test
    void rejectsAbsurdLengths() {
        assertRejected(
                new GgufBuilder()
                        .kvRaw(concat(le(8).putLong(Long.MAX_VALUE), le(64)).array()),
                "absurd length");
        assertRejected(
                new GgufBuilder()
                        .kvRaw(concat(str("k"), le(4).putInt(8), le(8).putLong(1L << 40))
                                .array()),
                "absurd length 1099511627776");
        assertRejected(
                new GgufBuilder()
                        .kvRaw(concat(str("k"), le(4).putInt(8), le(8).putLong(1000))
                                .array()),
                "k needs 1000 bytes");
        assertRejected(
                new GgufBuilder().kv("a", GgufValueType.ARRAY, le(12).putInt(4).putLong(1L << 62)),
                "length of array 'a'");
        assertRejected(
                new GgufBuilder().kv("a", GgufValueType.ARRAY, le(12).putInt(8).putLong(Long.MAX_VALUE / 2)),
                "length of array 'a'");
    }

    @Test
    void rejectsDeeplyNestedArrays() {
        ByteBuffer nested = le(12 * 40);
        for (int i = 0; i < 40; i++) {
            nested.putInt(9).putLong(1);
        }
        assertRejected(new GgufBuilder().kv("deep", GgufValueType.ARRAY, nested), "nests arrays deeper");
    }

    @Test
    void rejectsUnknownTypes() {
        assertRejected(
                new GgufBuilder()
                        .kv("x", GgufValueType.UINT8, le(1).put((byte) 1))
                        .kvRaw(concat(str("bad"), le(4).putInt(99)).array()),
                "unknown value type 99");
        assertRejected(
                new GgufBuilder().tensorInfo("t", 1, new long[] {32}, 77, 0, new byte[64], 0), "unknown ggml type 77");
    }

    @Test
    void rejectsBadTensorInfos() {
        assertRejected(
                new GgufBuilder().tensorInfo("t", 5, new long[] {1, 1, 1, 1, 1}, 0, 0, new byte[4], 0), "5 dimensions");
        assertRejected(
                new GgufBuilder().tensorInfo("t", 2, new long[] {1L << 40, 1L << 40}, 0, 0, new byte[4], 0),
                "more elements");
        assertRejected(new GgufBuilder().tensorInfo("t", 1, new long[] {-4}, 0, 0, new byte[4], 0), "is absurd");
        assertRejected(
                new GgufBuilder().tensor("t", GgmlType.Q8_0, new long[] {31}, new byte[34]),
                "not a multiple of the Q8_0 block size");
        assertRejected(
                new GgufBuilder().tensorAt("t", GgmlType.F32, new long[] {1}, 3, new byte[4]),
                "not a multiple of the alignment");
        assertRejected(
                new GgufBuilder()
                        .tensor("t", GgmlType.F32, new long[] {1}, new byte[4])
                        .tensor("t", GgmlType.F32, new long[] {1}, new byte[4]),
                "duplicate tensor name 't'");
        assertRejected(new GgufBuilder().kvU32("k", 1).kvU32("k", 2), "duplicate metadata key 'k'");
        assertRejected(new GgufBuilder().alignment(24), "not a power of two");
    }

    @Test
    void rejectsTensorsPastTheEndOfTheFile() {
        assertRejected(
                new GgufBuilder().tensorInfo("t", 1, new long[] {64}, 0, 0, new byte[4], 0),
                "ends past the end of the file");
        assertRejected(
                new GgufBuilder().tensorInfo("t", 1, new long[] {1}, 0, 1L << 50, null, 0),
                "ends past the end of the file");
        assertRejected(
                new GgufBuilder().tensorInfo("t", 1, new long[] {1}, 0, Long.MAX_VALUE & ~31L, null, 0),
                "ends past the end");
    }

    @Test
    void rejectsOverlappingTensors() {
        assertRejected(
                new GgufBuilder()
                        .tensorAt("a", GgmlType.F32, new long[] {16}, 0, new byte[64])
                        .tensorAt("b", GgmlType.F32, new long[] {16}, 32, new byte[64]),
                "'a' and 'b' overlap");
    }

    @Test
    void everyTruncationIsATypedError() throws IOException {
        byte[] full = tensorFile().kvString("general.name", "truncate me").build();
        for (int len = 0; len < full.length; len++) {
            Path p = Files.write(dir.resolve("t.gguf"), Arrays.copyOf(full, len));
            assertThatThrownBy(() -> GgufFile.open(p).close())
                    .as("length " + len)
                    .isInstanceOf(GgufFormatException.class);
        }
    }

    @Test
    void randomCorruptionNeverEscapesAsAnotherException() throws IOException {
        byte[] original = Files.readAllBytes(TestData.model("stories260K-q8_0.gguf"));
        int headerEnd;
        try (GgufFile f = GgufFile.open(TestData.model("stories260K-q8_0.gguf"))) {
            headerEnd = (int) f.dataStart();
        }
        Random random = new Random(42);
        int opened = 0;
        int rejected = 0;
        for (int trial = 0; trial < 300; trial++) {
            byte[] corrupt = original.clone();
            for (int k = 0; k < 1 + random.nextInt(4); k++) {
                int at = random.nextInt(headerEnd);
                corrupt[at] = (byte) random.nextInt(256);
            }
            Path p = Files.write(dir.resolve("c.gguf"), corrupt);
            try (GgufFile f = GgufFile.open(p)) {
                // a file that opens is whole: every tensor's bytes lie in the file, every key reads
                for (GgufTensor t : f.tensors()) {
                    assertThat(t.byteSize()).as(t.name()).isEqualTo(t.type().byteSize(t.elementCount()));
                    assertThat(t.offset() + t.byteSize()).as(t.name()).isLessThanOrEqualTo(f.fileSize());
                    if (t.byteSize() > 0) {
                        t.data().get(ValueLayout.JAVA_BYTE, t.byteSize() - 1);
                    }
                }
                for (String key : f.metadata().keys()) {
                    assertThat(f.metadata().find(key)).as(key).isPresent();
                }
                opened++;
            } catch (GgufFormatException expected) {
                assertThat(expected.getMessage()).startsWith(p.toString());
                rejected++;
            }
        }
        // both outcomes happen: the trials reach the checks as well as the parser's refusals
        assertThat(opened).as("corruptions that still parse").isPositive();
        assertThat(rejected).as("corruptions refused").isPositive();
    }

    private static GgufBuilder tensorFile() {
        return new GgufBuilder()
                .kvString("general.architecture", "llama")
                .tensor("w", GgmlType.Q8_0, new long[] {32, 1}, bytes(34, 1));
    }

    private void assertRejected(GgufBuilder b, String message) {
        try {
            Path p = b.writeTo(dir, "bad.gguf");
            assertThatThrownBy(() -> GgufFile.open(p).close())
                    .isInstanceOf(GgufFormatException.class)
                    .hasMessageContaining(message)
                    .hasMessageStartingWith(p.toString());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] bytes(int n, int value) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) value);
        return b;
    }

    private static ByteBuffer concat(ByteBuffer... parts) {
        int n = 0;
        for (ByteBuffer p : parts) {
            n += p.position() > 0 ? p.position() : p.capacity();
        }
        ByteBuffer out = le(n);
        for (ByteBuffer p : parts) {
            out.put(p.array(), 0, p.position() > 0 ? p.position() : p.capacity());
        }
        return out;
    }
}
