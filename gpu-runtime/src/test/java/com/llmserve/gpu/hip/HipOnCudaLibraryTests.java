package com.llmserve.gpu.hip;

import static com.llmserve.gpu.spi.CTypes.C_INT;
import static com.llmserve.gpu.spi.CTypes.C_LONG;
import static com.llmserve.gpu.spi.CTypes.C_POINTER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.llmserve.gpu.CodeObjectCatalog;
import com.llmserve.gpu.CodeObjectTarget;
import com.llmserve.gpu.spi.NativeLibrary;
import com.llmserve.kernels.KernelModuleId;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Builds hip-on-cuda, the test-only library that runs the HIP backend on an NVIDIA GPU by
 * translation (src/test/native/hip-on-cuda, docs/amd.md), into {@code target/hip-on-cuda}, runs its
 * C-level check, and checks it against the binding holders: it exports every symbol they bind, its
 * symbol list is exactly theirs, and with no libcuda (CI) the HIP probe call answers
 * {@code hipErrorNoDevice} through it. On a GPU host the device suites then run over it (run-device.sh
 * with RUNTIME=hip).
 */
class HipOnCudaLibraryTests {

    static final Path SOURCES = Path.of("src/test/native/hip-on-cuda");
    static final Path OUT = Path.of("target/hip-on-cuda");

    static String buildOutput;

    @BeforeAll
    static void build() throws Exception {
        // The binding holders load their libraries first: once this test has loaded ours by path, a
        // dlopen("libamdhip64.so.6") by name in this JVM would find it by its soname.
        assertThat(holders()).hasSize(4);
        Files.createDirectories(OUT);
        Run run = run(List.of("bash", SOURCES.resolve("build.sh").toString(), OUT.toString()));
        buildOutput = run.output();
        assertThat(run.exitCode()).as(run.output()).isZero();
    }

    @Test
    void itsOwnCheckPasses() throws Exception {
        Run run = run(List.of(OUT.resolve("test-hoc").toString(), OUT.toString()));
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("all checks passed");
    }

    /**
     * The translation itself, over a fake logging libcuda/cuBLAS/NVML (fake_cuda.c): which CUDA call
     * each ROCm call becomes with which arguments and enums, how statuses come back, per-thread
     * context binding, and every HSACO of the kernels jar loaded by hipModuleLoadData as its cubin.
     */
    @Test
    void itsTranslationChecksPassOverAFakeCuda() throws Exception {
        Path code = codeObjects();
        Run run = run(List.of(OUT.resolve("test-translation").toString(), OUT.toString(), code.toString()));
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("HSACO loaded as their cubins").contains("all checks passed");
    }

    /**
     * The HIP backend's host code end to end through the library, over the fake libcuda/cuBLAS/NVML,
     * in a JVM of its own (the library path is read at start): {@link HipOverFakeCuda}. Its call
     * counts then show the bindings the Java side reached: every one the holders bind.
     */
    @Test
    void theHipBackendRunsOverTheLibraryAndAFakeCuda() throws Exception {
        Path code = codeObjects();
        Path fake = OUT.resolve("libfake-cuda.so").toAbsolutePath();
        Path trace = OUT.resolve("fake-run-calls.tsv").toAbsolutePath();
        Files.deleteIfExists(trace);
        Files.deleteIfExists(Path.of(trace + ".first"));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(
                        java.toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        HipOverFakeCuda.class.getName())
                .redirectErrorStream(true);
        pb.environment().put("LD_LIBRARY_PATH", OUT.toAbsolutePath().toString());
        pb.environment().put("HIP_ON_CUDA_LIBCUDA", fake.toString());
        pb.environment().put("HIP_ON_CUDA_LIBCUBLAS", fake.toString());
        pb.environment().put("HIP_ON_CUDA_LIBNVML", fake.toString());
        pb.environment().put("HIP_ON_CUDA_SOFTMAX", "kernel");
        pb.environment().put("HIP_ON_CUDA_CUBIN_DIR", code.toAbsolutePath().toString());
        pb.environment().put("HIP_ON_CUDA_TRACE", trace.toString());
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output).contains("hip over fake cuda: OK");

        Set<String> called = new TreeSet<>();
        for (String line : Files.readAllLines(trace)) {
            String[] f = line.split("\t");
            if (!line.startsWith("#") && f.length == 3 && Long.parseLong(f[2]) > 0) called.add(f[0]);
        }
        Set<String> bound = new TreeSet<>();
        for (NativeLibrary library : holders()) bound.addAll(library.functions().keySet());
        Set<String> uncalled = new TreeSet<>(bound);
        uncalled.removeAll(called);
        // the figure coverage.py prints for a device run, here for CI's
        System.out.printf(
                "hip-on-cuda: %d of %d bound symbols called (HipOverFakeCuda)%n",
                bound.size() - uncalled.size(), bound.size());
        assertThat(uncalled)
                .as("bound symbols the HIP backend did not reach over the fake: a binding no path uses is"
                        + " removed, one that is used is reached by HipOverFakeCuda")
                .isEmpty();
    }

    /** The kernels jar's HSACO and cubins, written out as files (the cubins are what the library loads). */
    static synchronized Path codeObjects() throws IOException {
        Path dir = Files.createDirectories(OUT.resolve("code-objects"));
        CodeObjectCatalog catalog = CodeObjectCatalog.load();
        // CI builds every kind; a kernels jar built with -Dkernels.kinds=cubin,ptx has no HSACO to translate
        assumeTrue(
                catalog.targets(KernelModuleId.values()[0]).stream()
                        .anyMatch(t -> t.kind() == CodeObjectTarget.Kind.HSACO),
                "the kernels jar on the class path has no HSACO (built without -Dkernels.kinds=hsaco,...)");
        for (KernelModuleId module : KernelModuleId.values()) {
            for (CodeObjectCatalog.Entry e : catalog.entries(module)) {
                if (e.target().kind() != CodeObjectTarget.Kind.PTX) {
                    Files.write(dir.resolve(e.file()), catalog.image(e));
                }
            }
        }
        return dir;
    }

    @Test
    void theHandWrittenCudaDeclarationsMatchCudaH() {
        // cuda.h is on every machine of this kind (nvcc); build.sh fails on a mismatch
        assertThat(buildOutput).contains("CUDA driver declarations match");
    }

    @Test
    void everyNameTheHoldersLoadIsTheLibrary() throws IOException {
        for (NativeLibrary library : holders()) {
            for (String name : library.names()) {
                if (name.equals("libamdhip64.so.5")) continue; // the ROCm 5 fallback: the library is ROCm 6
                Path link = OUT.resolve(name);
                assertThat(link).as(name + " in " + OUT).exists();
                assertThat(link.toRealPath())
                        .isEqualTo(OUT.resolve("libhip-on-cuda.so").toRealPath());
            }
        }
    }

    @Test
    void itExportsEverySymbolTheBindingsLookUp() {
        try (Arena arena = Arena.ofConfined()) {
            for (NativeLibrary library : holders()) {
                SymbolLookup lookup = SymbolLookup.libraryLookup(
                        OUT.resolve(library.names().getFirst()).toAbsolutePath(), arena);
                for (String symbol : library.functions().keySet()) {
                    assertThat(lookup.find(symbol))
                            .as(symbol + " in " + library.names().getFirst())
                            .isPresent();
                }
            }
        }
    }

    @Test
    void itsSymbolListIsExactlyTheBindings() throws IOException {
        Set<String> bound = holders().stream()
                .flatMap(l -> l.functions().keySet().stream())
                .collect(Collectors.toCollection(TreeSet::new));
        Matcher m =
                Pattern.compile("(?m)^X\\((\\w+), \\w+\\)").matcher(Files.readString(SOURCES.resolve("symbols.def")));
        Set<String> listed = new TreeSet<>();
        while (m.find()) listed.add(m.group(1));
        assertThat(listed).as("symbols.def against the holders' bindings").isEqualTo(bound);
    }

    @Test
    void withoutLibcudaHipGetDeviceCountAnswersNoDevice() throws Throwable {
        assumeFalse(loads("libcuda.so.1"), "libcuda.so.1 is present: this host has an NVIDIA driver");
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup lookup =
                    SymbolLookup.libraryLookup(OUT.resolve("libamdhip64.so.6").toAbsolutePath(), arena);
            Linker linker = Linker.nativeLinker();
            MethodHandle count = linker.downcallHandle(
                    lookup.find("hipGetDeviceCount").orElseThrow(), FunctionDescriptor.of(C_INT, C_POINTER));
            MethodHandle name = linker.downcallHandle(
                    lookup.find("hipGetErrorName").orElseThrow(), FunctionDescriptor.of(C_POINTER, C_INT));
            MemorySegment out = arena.allocate(ValueLayout.JAVA_INT);
            out.set(ValueLayout.JAVA_INT, 0, -1);
            int rc = (int) count.invokeExact(out);
            assertThat(rc).isEqualTo(hip_runtime_api_h.hipErrorNoDevice);
            assertThat(out.get(ValueLayout.JAVA_INT, 0)).isZero();
            MemorySegment text = ((MemorySegment) name.invokeExact(rc)).reinterpret(64);
            assertThat(text.getString(0)).isEqualTo("hipErrorNoDevice");
        }
    }

    /**
     * The module cache hands hipModuleLoadData the HSACO it picked by gcnArchName; the library loads
     * the cubin with the same kernels instead. Checked here over the real kernels jar, without a
     * device: every module's HSACO of every AMD target finds that module's cubin, for sm_90 exactly
     * and for an sm_86 device the sm_80 one (same major, lower minor); a cubin is not taken for a HSACO.
     */
    @Test
    void everyHsacoOfTheKernelsJarFindsTheCubinOfItsModule() throws Throwable {
        CodeObjectCatalog catalog = CodeObjectCatalog.load();
        Path cubins = codeObjects();
        try (Arena arena = Arena.ofConfined()) {
            Linker linker = Linker.nativeLinker();
            MethodHandle setenv = linker.downcallHandle(
                    linker.defaultLookup().find("setenv").orElseThrow(),
                    FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT));
            int rc = (int) setenv.invokeExact(
                    arena.allocateFrom("HIP_ON_CUDA_CUBIN_DIR"),
                    arena.allocateFrom(cubins.toAbsolutePath().toString()),
                    1);
            assertThat(rc).isZero();
            SymbolLookup lookup =
                    SymbolLookup.libraryLookup(OUT.resolve("libamdhip64.so.6").toAbsolutePath(), arena);
            MethodHandle cubinFor = linker.downcallHandle(
                    lookup.find("hipOnCudaCubinFor").orElseThrow(),
                    FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT, C_POINTER, C_LONG));
            int checked = 0;
            for (KernelModuleId module : KernelModuleId.values()) {
                for (CodeObjectCatalog.Entry e : catalog.entries(module)) {
                    MemorySegment image = arena.allocateFrom(ValueLayout.JAVA_BYTE, catalog.image(e));
                    MemorySegment chosen = arena.allocate(256);
                    if (e.target().kind() != CodeObjectTarget.Kind.HSACO) {
                        int status = (int) cubinFor.invokeExact(image, 9, 0, chosen, 256L);
                        assertThat(status).as(e.file()).isEqualTo(200); // hipErrorInvalidImage: not a HSACO
                        continue;
                    }
                    int status = (int) cubinFor.invokeExact(image, 9, 0, chosen, 256L);
                    assertThat(status).as(e.file()).isZero();
                    assertThat(chosen.getString(0)).as(e.file()).isEqualTo(module.moduleName() + ".sm_90.cubin");
                    status = (int) cubinFor.invokeExact(image, 8, 6, chosen, 256L);
                    assertThat(status).as(e.file()).isZero();
                    assertThat(chosen.getString(0)).as(e.file()).isEqualTo(module.moduleName() + ".sm_80.cubin");
                    checked++;
                }
            }
            assertThat(checked)
                    .as("HSACO code objects in the kernels jar")
                    .isGreaterThanOrEqualTo(KernelModuleId.values().length);
        }
    }

    private static boolean loads(String library) {
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup.libraryLookup(library, arena);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The holders whose libraries hip-on-cuda stands in for. Reading LIBRARY initialises the holder,
     * which binds all its calls (SHARED and CALLS included), so every symbol is recorded.
     */
    static List<NativeLibrary> holders() {
        return List.of(hip_runtime_api_h.LIBRARY, rocblas_h.LIBRARY, miopen_h.LIBRARY, rocm_smi_h.LIBRARY);
    }

    record Run(int exitCode, String output) {}

    static Run run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as(command + " finished").isTrue();
        return new Run(p.exitValue(), output);
    }
}
