package com.llmserve.kernels;

import static com.llmserve.kernels.KernelParam.Kind.F32;
import static com.llmserve.kernels.KernelParam.Kind.I32;
import static com.llmserve.kernels.KernelParam.Kind.I64;
import static com.llmserve.kernels.KernelParam.Kind.POINTER;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated ids and constants against the kernel sources and header they are read from, and
 * what the build refuses.
 */
class KernelDeclarationsTests {

    private static final Path SCRIPT = Path.of("src/build/build-kernels.sh");

    @Test
    void aKernelCarriesItsParametersAsDeclared() {
        assertThat(Kernel.RMS_NORM_V4.params())
                .containsExactly(
                        new KernelParam("x", POINTER),
                        new KernelParam("weight", POINTER),
                        new KernelParam("y", POINTER),
                        new KernelParam("cols", I32),
                        new KernelParam("eps", F32));
        assertThat(Kernel.REPACK_Q4_0.params())
                .extracting(KernelParam::kind)
                .containsExactly(POINTER, POINTER, POINTER, I64);
    }

    @Test
    void kernelsInstantiatedByMacrosAreFoundWithTheirParameters() {
        assertThat(Kernel.MMVQ_Q8_0_8.module()).isEqualTo(KernelModuleId.GEMV);
        assertThat(Kernel.MMVQ_Q8_0_8.params())
                .extracting(KernelParam::name)
                .containsExactly("w", "wd", "xq", "xd", "xs", "y", "rows", "k", "ystride", "accumulate");
        assertThat(Kernel.EMBED_Q4_K.symbol()).isEqualTo("ls_embed_q4_k");
        assertThat(Kernel.ATTENTION_SPLIT_D256.params())
                .hasSize(26)
                .last()
                .isEqualTo(new KernelParam("q8_sums", POINTER));
        // a macro whose arguments name the kernel and pick its body (`name`, `mma`)
        assertThat(Kernel.ATTENTION_DMMA_Q8_D128.symbol()).isEqualTo("ls_attention_dmma_q8_d128");
        assertThat(Kernel.ATTENTION_DMMA_Q8_D128.params())
                .extracting(KernelParam::name)
                .startsWith("qkv", "stride", "keys", "key_scales", "values", "value_scales")
                .endsWith("splits", "head_parts", "q8", "q8_d", "q8_sums");
    }

    @Test
    void everyGemvComesForEachTokenCountUpToTheLaunchConstant() {
        for (String family :
                new String[] {"MMVQ_Q4_0", "MMVQ_Q8_0", "MMVK_Q4_K", "MMVK_Q6_K", "MMVF_Q2_K", "MMVF_F16", "MMVF_F32"
                }) {
            assertThat(Arrays.stream(Kernel.values()).map(Kernel::name).filter(n -> n.matches(family + "_\\d+")))
                    .as(family)
                    .hasSize(KernelConstants.LS_MMV_MAX_COLS)
                    .contains(family + "_" + KernelConstants.LS_MMV_MAX_COLS);
        }
    }

    @Test
    void eachLaunchConstantBecomesAnIntWithItsComment(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.hip"), "LS_KERNEL void ls_x(int n) {}\n");
        Files.writeString(dir.resolve("ls_launch.h"), """
                // What the header is for: not a constant's comment.

                #pragma once

                // Threads per block of
                // every <small> launch.
                #define LS_THREADS 128
                """);
        Build build = build(dir, "a a.hip");
        assertThat(build.exitCode()).as(build.output()).isZero();
        assertThat(Files.readString(build.java().resolve("KernelConstants.java")))
                .contains("""
                          /**
                           * Threads per block of
                           * every &lt;small&gt; launch.
                           */
                          public static final int LS_THREADS = 128;
                        """)
                .doesNotContain("What the header is for");
    }

    @Test
    void aLaunchConstantTheBuildCannotReadFailsIt(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.hip"), "LS_KERNEL void ls_x(int n) {}\n");
        Files.writeString(dir.resolve("ls_launch.h"), """
                // Threads per block.
                #define LS_THREADS (4 * 32)
                """);
        Build build = build(dir, "a a.hip");
        assertThat(build.exitCode()).isNotZero();
        assertThat(build.output())
                .contains("ls_launch.h:2: cannot read '#define LS_THREADS (4 * 32)'")
                .contains("cannot turn ls_launch.h into KernelConstants");
    }

    @Test
    void aLaunchConstantWithoutItsCommentFailsTheBuild(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.hip"), "LS_KERNEL void ls_x(int n) {}\n");
        Files.writeString(dir.resolve("ls_launch.h"), "#pragma once\n\n#define LS_THREADS 128\n");
        Build build = build(dir, "a a.hip");
        assertThat(build.exitCode()).isNotZero();
        assertThat(build.output()).contains("LS_THREADS has no comment above it");
    }

    @Test
    void declarationsSpanningLinesAndMacroInstancesAreRead(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.hip"), """
                // LS_KERNEL void ls_in_a_comment(double d): not an entry point
                #define LS_TWICE(name, T) \\
                  LS_KERNEL void ls_##name(T* out, unsigned n) {}
                LS_KERNEL
                void ls_split(const float* __restrict__ x,  // each parameter on its line
                              long long blocks,
                              float scale) {}
                LS_TWICE(first, int)
                LS_TWICE(second, float)
                """);
        Build build = build(dir, "a a.hip");
        assertThat(build.exitCode()).as(build.output()).isZero();
        assertThat(Files.readString(build.java().resolve("Kernel.java")))
                .contains("""
                          SPLIT(KernelModuleId.A, "ls_split",
                              new KernelParam("x", POINTER),
                              new KernelParam("blocks", I64),
                              new KernelParam("scale", F32)),
                          FIRST(KernelModuleId.A, "ls_first",
                              new KernelParam("out", POINTER),
                              new KernelParam("n", I32)),
                          SECOND(KernelModuleId.A, "ls_second",
                        """)
                .doesNotContain("IN_A_COMMENT");
    }

    @Test
    void aParameterTypeALaunchCannotPassFailsTheBuildByName(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.hip"), "LS_KERNEL void ls_bad(float* x, double weight) {}\n");
        Build build = build(dir, "a a.hip");
        assertThat(build.exitCode()).isNotZero();
        assertThat(build.output()).contains("kernel ls_bad, parameter 1 (weight): unsupported type 'double'");
    }

    @Test
    void aManifestLineListingSymbolsIsRefused(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.hip"), "LS_KERNEL void ls_x(int n) {}\n");
        Build build = build(dir, "a a.hip ls_x");
        assertThat(build.exitCode()).isNotZero();
        assertThat(build.output()).contains("want '<module> <source> [waits]'");
    }

    @Test
    void aModuleMarkedWaitsMayLaunchBeforeItsPredecessorEnds(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.hip"), "LS_KERNEL void ls_x(int n) {}\n");
        Files.writeString(dir.resolve("b.hip"), "LS_KERNEL void ls_y(int n) {}\n");
        Build build = build(dir, "a a.hip waits\nb b.hip");
        assertThat(build.exitCode()).as(build.output()).isZero();
        assertThat(Files.readString(build.java().resolve("KernelModuleId.java")))
                .contains("A(\"a\", \"a.hip\", true)")
                .contains("B(\"b\", \"b.hip\", false)");
        // the decode path's modules wait; the prompt-only products do not
        assertThat(KernelModuleId.GEMV.waitsForPredecessor()).isTrue();
        assertThat(KernelModuleId.ATTENTION.waitsForPredecessor()).isTrue();
        assertThat(KernelModuleId.MMQ.waitsForPredecessor()).isFalse();
    }

    record Build(int exitCode, String output, Path java) {}

    /**
     * Runs the build script on the sources in {@code dir} (with a one-constant ls_launch.h unless
     * the test wrote its own), Java only: no compiler needed.
     */
    static Build build(Path dir, String manifest) throws IOException, InterruptedException {
        Files.writeString(dir.resolve("kernels.manifest"), manifest + "\n");
        Files.writeString(dir.resolve("targets.manifest"), "# none\n");
        if (!Files.exists(dir.resolve("ls_launch.h"))) {
            Files.writeString(dir.resolve("ls_launch.h"), "// Threads per block.\n#define LS_THREADS 128\n");
        }
        Path java = dir.resolve("java");
        ProcessBuilder pb = new ProcessBuilder(
                        "bash",
                        SCRIPT.toAbsolutePath().toString(),
                        dir.toString(),
                        dir.resolve("res").toString(),
                        java.toString())
                .redirectErrorStream(true);
        pb.environment().put("KERNEL_KINDS", "none");
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Build(p.waitFor(), output, java.resolve("com/llmserve/kernels"));
    }
}
