package com.llmserve.engine.backend.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.backend.cpu.CpuTensor;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufTensor;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The device kernels' eight-element readers (kernels/src/main/gpu/ls_formats.h, which every GEMV,
 * expert GEMV, embed and F16 dequant kernel reads weights through) compiled for the host with the
 * host's C++ compiler and a stand-in for ls_compat.h (test resources gpu-host/), without
 * floating-point contraction, and compared bit for bit with the CPU backend's dequantization on
 * random blocks: the block layouts, bit positions and float arithmetic, checked without a device.
 * What a device adds (its compiler may fuse a multiply and an add; the kernels' loops around the
 * readers) GpuBackendTests checks there. Skipped where the kernel sources or a C++ compiler are
 * absent (a device bundle's jar).
 */
class FormatReadersOnHostTests {

    private static final Path KERNELS = Path.of("..", "kernels", "src", "main", "gpu");

    private static Path readers;

    @BeforeAll
    static void compile(@TempDir Path dir) throws IOException, InterruptedException {
        Assumptions.assumeTrue(Files.isRegularFile(KERNELS.resolve("ls_formats.h")), "no kernel sources at " + KERNELS);
        String compiler = Stream.of("c++", "g++", "clang++-19", "clang++")
                .filter(FormatReadersOnHostTests::runs)
                .findFirst()
                .orElse(null);
        Assumptions.assumeTrue(compiler != null, "no host C++ compiler");
        Files.copy(KERNELS.resolve("ls_formats.h"), dir.resolve("ls_formats.h"));
        for (String name : List.of("ls_compat.h", "readers.cpp")) {
            try (InputStream in = FormatReadersOnHostTests.class.getResourceAsStream("/gpu-host/" + name)) {
                Files.copy(in, dir.resolve(name));
            }
        }
        readers = dir.resolve("readers");
        Process p = new ProcessBuilder(
                        compiler,
                        "-std=c++17",
                        "-O1",
                        "-ffp-contract=off",
                        "-Wno-unknown-pragmas",
                        dir.resolve("readers.cpp").toString(),
                        "-o",
                        readers.toString())
                .redirectErrorStream(true)
                .start();
        String log = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as("%s readers.cpp:%n%s", compiler, log).isZero();
    }

    private static boolean runs(String command) {
        try {
            Process p = new ProcessBuilder(command, "--version")
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The formats kept in GGML's layout (Q4_0 and Q8_0 are repacked at upload: not this layout). */
    static Stream<GgmlType> ggmlLayoutFormats() {
        return Stream.of(
                GgmlType.Q4_1,
                GgmlType.Q5_0,
                GgmlType.Q5_1,
                GgmlType.Q2_K,
                GgmlType.Q3_K,
                GgmlType.Q4_K,
                GgmlType.Q5_K,
                GgmlType.Q6_K,
                GgmlType.F16,
                GgmlType.BF16,
                GgmlType.F32);
    }

    @ParameterizedTest
    @MethodSource("ggmlLayoutFormats")
    void theDeviceReaderGivesTheCpuBackendsValuesBitForBit(GgmlType type, @TempDir Path dir)
            throws IOException, InterruptedException {
        assertThat(WeightFormat.forType(type, 512).type()).isEqualTo(type);
        assertThat(WeightFormat.forType(type, 512).repacked()).isFalse();
        compareWithTheCpu(type, type.name().toLowerCase(Locale.ROOT), dir);
    }

    /**
     * The integer GEMV's unpacking of Q4_1, Q5_0 and Q5_1 blocks ({@code ls_iq_unpack}: the int8
     * values its dot products take, and the block's d and m), each value then dequantized as the CPU
     * does: the CPU's values again, so the integer products multiply the CPU's weights.
     */
    @ParameterizedTest
    @MethodSource("integerGemvFormats")
    void theIntegerGemvsUnpackingGivesTheCpuBackendsValuesBitForBit(GgmlType type, @TempDir Path dir)
            throws IOException, InterruptedException {
        assertThat(WeightFormat.forType(type, 512).integerGemv()).isTrue();
        compareWithTheCpu(type, "iq_" + type.name().toLowerCase(Locale.ROOT), dir);
    }

    static Stream<GgmlType> integerGemvFormats() {
        return Stream.of(GgmlType.Q4_1, GgmlType.Q5_0, GgmlType.Q5_1);
    }

    private static void compareWithTheCpu(GgmlType type, String reader, Path dir)
            throws IOException, InterruptedException {
        int rows = 9;
        int cols = 512;
        GgufTensor w = RandomTensors.tensor("w", type, rows, cols, new Random(type.ordinal() * 17L + 3));
        Path raw = dir.resolve("raw");
        Path out = dir.resolve("out");
        Files.write(raw, w.data().asSlice(0, w.byteSize()).toArray(ValueLayout.JAVA_BYTE));
        Process p = new ProcessBuilder(
                        readers.toString(),
                        reader,
                        Integer.toString(rows),
                        Integer.toString(cols),
                        raw.toString(),
                        out.toString())
                .redirectErrorStream(true)
                .start();
        String log = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as("readers %s: %s", reader, log).isZero();
        float[] got = MemorySegment.ofArray(Files.readAllBytes(out)).toArray(ValueLayout.JAVA_FLOAT_UNALIGNED);

        CpuTensor cpu = CpuTensor.of(w);
        float[] want = new float[rows * cols];
        for (int r = 0; r < rows; r++) {
            cpu.dequantizeRow(r, want, r * cols);
        }
        assertThat(got).hasSize(want.length);
        for (int i = 0; i < want.length; i++) {
            int at = i;
            assertThat(Float.floatToRawIntBits(got[i]))
                    .as(() -> reader + " row " + at / cols + " element " + at % cols + ": device reader " + got[at]
                            + ", CPU " + want[at])
                    .isEqualTo(Float.floatToRawIntBits(want[i]));
        }
    }
}
