package com.llmserve.engine.backend.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.TestData;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufBuilder;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufTensor;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.SimulatedGpu;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 17's memory bound without a device: every type the CPU backend reads has a device format
 * in its own block layout (or a repacked one of the same size), so with half copies off a model's
 * weights take at most 1.05 times its file's tensor bytes on the device. Runs on a
 * {@link SimulatedGpu}, whose allocator accounts what the uploads take.
 */
class GpuWeightBytesTests {

    /** The most device bytes of weights per file byte of tensors. */
    private static final double BOUND = 1.05;

    private static SimulatedGpu gpu;
    private static Device device;

    @BeforeAll
    static void open() {
        gpu = SimulatedGpu.open(2L << 30);
        device = gpu.pool().device(0);
    }

    @AfterAll
    static void close() {
        gpu.close();
    }

    /** The tiny llama of every file type (each mixes in the types llama-quantize gives some tensors). */
    static Stream<String> tinyModels() {
        return TestData.llamaFamilyModels().stream().filter(m -> m.startsWith("tiny-"));
    }

    @Test
    void gateAndUpStacksOfOneTypeGoExpertByExpertAsViewsOfTheFile() {
        int cols = 64;
        int experts = 3;
        GgufTensor gate = stack("gate", 2, cols, experts, 1);
        GgufTensor up = stack("up", 4, cols, experts, 101);
        List<GgufTensor> parts = WeightUploader.byExpert("gate_up", List.of(gate, up), experts, cols);
        assertThat(parts).hasSize(2 * experts);
        for (int e = 0; e < experts; e++) {
            GgufTensor g = parts.get(2 * e);
            GgufTensor u = parts.get(2 * e + 1);
            assertThat(g.rows()).isEqualTo(2);
            assertThat(u.rows()).isEqualTo(4);
            // each part starts at its expert's first row of its stack (row r's first byte is 1 + r or 101 + r)
            assertThat(g.data().get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) (1 + 2 * e));
            assertThat(u.data().get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) (101 + 4 * e));
        }
    }

    /** {@code experts} Q8_0 matrices of {@code rows x cols} stacked, row r's bytes all {@code first + r}. */
    private static GgufTensor stack(String name, int rows, int cols, int experts, int first) {
        long rowBytes = GgmlType.Q8_0.byteSize(cols);
        byte[] data = new byte[Math.toIntExact(rowBytes * rows * experts)];
        for (int r = 0; r < rows * experts; r++) {
            Arrays.fill(data, Math.toIntExact(r * rowBytes), Math.toIntExact((r + 1) * rowBytes), (byte) (first + r));
        }
        return new GgufTensor(name, GgmlType.Q8_0, new long[] {cols, rows, experts}, 0, MemorySegment.ofArray(data));
    }

    @ParameterizedTest
    @MethodSource("tinyModels")
    void aModelsWeightsTakeAtMostItsFilesTensorBytesOnTheDevice(String file) throws IOException {
        try (GgufFile f = GgufFile.open(TestData.model(file))) {
            assertWithinBound(file, f);
        }
    }

    /** No tiny BF16 model is shared: tiny-F16's tensors rewritten as BF16 (the upper halves of their floats). */
    @Test
    void aBf16ModelsWeightsTakeAtMostItsFilesTensorBytesOnTheDevice(@TempDir Path dir) throws IOException {
        Path bf16;
        try (GgufFile f16 = GgufFile.open(TestData.model("tiny-F16.gguf"))) {
            bf16 = asBf16(f16, dir);
        }
        try (GgufFile f = GgufFile.open(bf16)) {
            Set<GgmlType> types = f.tensors().stream().map(GgufTensor::type).collect(Collectors.toSet());
            assertThat(types).contains(GgmlType.BF16).doesNotContain(GgmlType.F16);
            assertWithinBound("tiny-BF16", f);
        }
    }

    /**
     * The weights' device bytes stay within the bound of the tensors' file bytes, and every matrix
     * is in its own type's device format.
     */
    private static void assertWithinBound(String what, GgufFile f) throws IOException {
        long fileBytes = f.tensors().stream().mapToLong(GgufTensor::byteSize).sum();
        long inUse = device.allocatorStats().bytesInUse();
        try (GpuBackend be = GpuBackend.open(device, GpuOptions.defaults().withHalfWeights(false));
                LanguageModel model = Architectures.loadLanguageModel(f, be, new ModelOptions(64, 0))) {
            long weightBytes = be.stats().weightBytes();
            assertThat(be.stats().halfWeightBytes()).isZero();
            assertThat((double) weightBytes)
                    .as("%s: %d device bytes of weights for %d file bytes of tensors", what, weightBytes, fileBytes)
                    .isLessThanOrEqualTo(BOUND * fileBytes);
            assertThat(device.allocatorStats().bytesInUse() - inUse)
                    .as("%s: allocated device memory with the model loaded, at least its weights (as accounted)", what)
                    .isGreaterThanOrEqualTo(weightBytes);
        }
        for (GgufTensor t : f.tensors()) {
            if (t.shape().length > 1 && t.dim(0) % 8 == 0) {
                assertThat(WeightFormat.forType(t.type(), Math.toIntExact(t.dim(0)))
                                .type())
                        .as("%s: device format of %s (%s)", what, t.name(), t.type())
                        .isEqualTo(t.type());
            }
        }
    }

    /** {@code f}'s metadata and tensors, F16 ones as BF16, written to {@code dir}. */
    private static Path asBf16(GgufFile f, Path dir) throws IOException {
        GgufBuilder b = new GgufBuilder();
        for (String key : f.metadata().keys()) {
            b.kvValue(key, f.metadata().find(key).orElseThrow());
        }
        for (GgufTensor t : f.tensors()) {
            byte[] bytes = t.data().asSlice(0, t.byteSize()).toArray(ValueLayout.JAVA_BYTE);
            GgmlType type = t.type();
            if (type == GgmlType.F16) {
                type = GgmlType.BF16;
                for (int i = 0; i < bytes.length; i += 2) {
                    short half = (short) ((bytes[i] & 0xFF) | (bytes[i + 1] << 8));
                    int bits = Float.floatToRawIntBits(Float.float16ToFloat(half));
                    // round to nearest even, as a BF16 conversion does (no NaNs among these weights)
                    bits += 0x7FFF + ((bits >>> 16) & 1);
                    bytes[i] = (byte) (bits >>> 16);
                    bytes[i + 1] = (byte) (bits >>> 24);
                }
            }
            b.tensor(t.name(), type, t.shape(), bytes);
        }
        return b.writeTo(dir, "tiny-BF16.gguf");
    }
}
