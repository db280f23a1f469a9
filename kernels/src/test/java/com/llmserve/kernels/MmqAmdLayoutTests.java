package com.llmserve.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mmq.hip's AMD paths (MFMA on gfx90a and gfx942, WMMA on gfx11; the int8 {@code ls_mmq_*} and the
 * half {@code ls_mmh_*}) cannot run here: no AMD GPU. Their operand and sum layouts ({@code
 * ls_mmq_amd.h}) are checked on the host instead, by a C++ program that builds every lane's registers
 * with the header's own helpers, carries the instructions out as the ISA lays out their registers,
 * and compares each lane's sums with plain dot products, and checks that {@code ls_mmh_*} stores every
 * sum of its block once (src/test/native/mmq_amd_layout.cpp). The HSACO build proves the instructions
 * compile for each target.
 */
class MmqAmdLayoutTests {

    private static final Path SOURCE = Path.of("src/test/native/mmq_amd_layout.cpp");
    private static final Path HEADERS = Path.of("src/main/gpu");

    @Test
    void everyLaneHoldsTheSumsOfTheRowsAndTokensTheKernelStoresThemAs(@TempDir Path dir)
            throws IOException, InterruptedException {
        String compiler = hostCompiler();
        assumeTrue(compiler != null, "no host C++ compiler (clang++-19, clang++, g++ or c++) on the PATH");
        Path binary = dir.resolve("mmq_amd_layout");
        Result build = run(List.of(
                compiler,
                "-std=c++17",
                "-O1",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-I",
                HEADERS.toString(),
                SOURCE.toString(),
                "-o",
                binary.toString()));
        assertThat(build.exit()).as(build.output()).isZero();

        Result check = run(List.of(binary.toString()));

        assertThat(check.exit()).as(check.output()).isZero();
        assertThat(check.output())
                .contains("mfma_i32_16x16x16i8 (gfx90a) Q4_0: 50 tiles agree")
                .contains("mfma_i32_16x16x32_i8 (gfx942) Q8_0: 50 tiles agree")
                .contains("wmma_i32_16x16x16_iu8 (gfx11) Q4_0: 50 tiles agree")
                .contains("mfma_f32_16x16x16_f16 (gfx90a, gfx942): 50 tiles agree, every sum of the block stored once")
                .contains("wmma_f32_16x16x16_f16 (gfx11): 50 tiles agree, every sum of the block stored once")
                .contains("all layouts agree");
    }

    private static String hostCompiler() {
        String path = System.getenv().getOrDefault("PATH", "");
        return Stream.of("clang++-19", "clang++", "g++", "c++")
                .filter(name -> Stream.of(path.split(java.io.File.pathSeparator))
                        .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, name))))
                .findFirst()
                .orElse(null);
    }

    private record Result(int exit, String output) {}

    private static Result run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS))
                .as("%s finished", command.getFirst())
                .isTrue();
        return new Result(p.exitValue(), output);
    }
}
