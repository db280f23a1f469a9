package com.llmserve.engine.backend.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.Gating;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.backend.Step;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.EmbeddingModel;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.model.PendingLogits;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.DeviceArch;
import com.llmserve.gpu.SimulatedGpu;
import com.llmserve.gpu.StreamLease;
import com.llmserve.kernels.Kernel;
import com.llmserve.kernels.KernelConstants;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The GPU backend's step machinery without a GPU: real models run on a {@link SimulatedGpu}, whose
 * kernels compute nothing but whose launches are checked against each kernel's declared parameters
 * and a device's limits, whose graphs are counted and whose memory is accounted. What runs here is
 * what runs on a device, up to the kernels' arithmetic (the GPU-tagged tests check that). The tiny
 * models' rows are multiples of 8 long, so their decode steps take graphs; stories260K's 172-wide
 * feed-forward always multiplies through the BLAS.
 */
class SimulatedGpuBackendTests {

    private static final int BLOCK = 16;

    private static SimulatedGpu gpu;
    private static Device device;

    @BeforeAll
    static void open() throws InterruptedException {
        gpu = SimulatedGpu.open(2L << 30);
        device = gpu.pool().device(0);
        // every stream's BLAS handle and workspace now: they belong to the pool, not to a model
        List<StreamLease> leases = new ArrayList<>();
        try {
            for (int i = 0; i < device.streams().capacity(); i++) {
                StreamLease lease = device.streams().lease();
                leases.add(lease);
                lease.stream().blas();
            }
        } finally {
            leases.forEach(StreamLease::close);
        }
    }

    @AfterAll
    static void close() {
        gpu.close();
    }

    @BeforeEach
    void forget() {
        gpu.clearLaunches();
    }

    @ParameterizedTest
    @MethodSource("com.llmserve.engine.TestData#decoderModels")
    void everyModelRunsItsPromptAndItsDecodeStepsWithWellFormedLaunchesAndGivesItsMemoryBack(String file)
            throws IOException {
        long inUse = device.allocatorStats().bytesInUse();
        try (GgufFile f = GgufFile.open(TestData.model(file));
                GpuBackend be = GpuBackend.open(device, GpuOptions.defaults());
                LanguageModel model = Architectures.loadLanguageModel(f, be, new ModelOptions(64, 0));
                KvStorage kv = model.newKvStorage(64, BLOCK)) {
            int[] table = IntStream.range(0, 64).toArray();
            model.forward(prompt(table, 40), kv, 1); // BLAS products, tiled attention, no graph
            model.forward(prompt(table, 5), kv, 0); // GEMV products; whole logit rows read back
            for (int step = 0; step < 3; step++) {
                model.forward(decode(table, 40 + step), kv, 1);
            }
            assertThat(gpu.launches()).isNotEmpty();
        }
        assertThat(device.allocatorStats().bytesInUse())
                .as("device memory in use")
                .isEqualTo(inUse);
    }

    /**
     * The tiny models of the types once dequantized to F16 on the host multiply through their own
     * formats' kernels: the integer GEMV (Q4_1, Q5_0, Q5_1, their int8 input written by the norms;
     * Q3_K to Q6_K over Q8_K ints), the float GEMV (Q2_K), the gather and, for a 40-token prompt
     * without half copies, the half tensor cores over the blocks as they are (no dequantization to
     * half per product).
     */
    @ParameterizedTest
    @MethodSource("modelsAndTheirKernels")
    void everyTypeMultipliesThroughItsOwnFormatsKernels(String file, List<String> kernels) throws IOException {
        try (GgufFile f = GgufFile.open(TestData.model(file));
                GpuBackend be = GpuBackend.open(device, GpuOptions.defaults().withHalfWeights(false));
                LanguageModel model = Architectures.loadLanguageModel(f, be, new ModelOptions(64, 0));
                KvStorage kv = model.newKvStorage(64, BLOCK)) {
            int[] table = IntStream.range(0, 64).toArray();
            model.forward(prompt(table, 40), kv, 1);
            for (int step = 0; step < 2; step++) {
                model.forward(decode(table, 40 + step), kv, 1);
            }
            List<String> launched =
                    gpu.launches().stream().map(SimulatedGpu.Launch::symbol).toList();
            assertThat(launched)
                    .containsAll(kernels)
                    .noneMatch(k -> k.startsWith("ls_mmvf_f16") || k.startsWith("ls_dequant"));
        }
    }

    static List<Arguments> modelsAndTheirKernels() {
        return List.of(
                Arguments.of(
                        "tiny-Q4_1.gguf",
                        List.of("ls_embed_q4_1", "ls_mmvq_q4_1_1", "ls_mmh_q4_1", "ls_rms_norm_q8_v4")),
                Arguments.of(
                        "tiny-Q5_0.gguf", List.of("ls_embed_q5_0", "ls_mmvq_q5_0_1", "ls_mmh_q5_0", "ls_swiglu_q8")),
                Arguments.of("tiny-Q5_1.gguf", List.of("ls_embed_q5_1", "ls_mmvq_q5_1_1", "ls_mmh_q5_1")),
                Arguments.of(
                        "tiny-Q2_K.gguf", List.of("ls_embed_q2_k", "ls_mmvf_q2_k_1", "ls_mmvk_q3_k_1", "ls_mmh_q2_k")),
                Arguments.of(
                        "tiny-Q3_K_M.gguf",
                        List.of("ls_embed_q3_k", "ls_mmvk_q3_k_1", "ls_mmvk_q4_k_1", "ls_mmvk_q5_k_1")),
                Arguments.of("tiny-Q5_K_M.gguf", List.of("ls_embed_q5_k", "ls_mmvk_q5_k_1", "ls_mmh_q5_k")));
    }

    /** A 40-token prompt: between gemm-min-rows (32) and mmq-max-rows (64) by default. */
    @Test
    void denseTensorCoreProductsRunWhereTheWeightsWouldOtherwiseBeDequantized() throws IOException {
        GpuOptions noHalves = GpuOptions.defaults().withHalfWeights(false);
        assertThat(promptKernels("tiny-Q4_0.gguf", noHalves))
                .as("no half copies: the quantized weights as they are, on the half tensor cores (sm_90)")
                .contains("ls_mmh_q4_0", "ls_quantize_q8_0_f16")
                .noneMatch(k -> k.startsWith("ls_dequant") || k.startsWith("ls_mmq"));
        assertThat(promptKernels("tiny-Q4_0.gguf", noHalves.withHalfTensorProducts(false)))
                .as("the int8 ones where the half ones are turned off")
                .contains("ls_mmq_q4_0")
                .noneMatch(k -> k.startsWith("ls_dequant") || k.startsWith("ls_mmh"));
        assertThat(promptKernels("tiny-Q4_0.gguf", noHalves.withMmqMaxRows(0)))
                .as("turned off: dequantized for the BLAS")
                .contains("ls_dequant_q4_0_f16")
                .noneMatch(k -> k.startsWith("ls_mmq") || k.startsWith("ls_mmh"));
        assertThat(promptKernels("tiny-Q4_0.gguf", noHalves.withMmqMaxRows(39)))
                .as("more rows than mmq-max-rows")
                .noneMatch(k -> k.startsWith("ls_mmq") || k.startsWith("ls_mmh"));
        assertThat(promptKernels("tiny-Q4_0.gguf", GpuOptions.defaults()))
                .as("half copies (written at load), 40 rows: the half tensor cores read the quantized weights")
                .contains("ls_mmh_q4_0")
                .noneMatch(k -> k.startsWith("ls_mmq"));
        assertThat(promptKernels("tiny-Q4_0.gguf", GpuOptions.defaults().withHalfTensorProducts(false)))
                .as("half copies, the half tensor cores off: the BLAS reads the copies")
                .noneMatch(k -> k.startsWith("ls_mmq") || k.startsWith("ls_mmh"));
    }

    @Test
    void expertGroupsTakeTheInt8TensorCoresUnlessTurnedOff() throws IOException {
        GpuOptions noHalves = GpuOptions.defaults().withHalfWeights(false);
        assertThat(promptKernels("tiny-qwen3moe-Q8_0.gguf", noHalves))
                .as("on by default")
                .contains("ls_mmq_ex_q8_0");
        assertThat(promptKernels("tiny-qwen3moe-Q8_0.gguf", noHalves.withExpertTensorCores(false)))
                .as("off")
                .noneMatch(k -> k.startsWith("ls_mmq_ex"));
        assertThat(promptKernels("tiny-qwen3moe-Q8_0.gguf", noHalves.withBatchInvariant(true)))
                .as("batch-invariant")
                .noneMatch(k -> k.startsWith("ls_mmq"));
    }

    /** The kernels a 40-token prompt of {@code file} launches under {@code options}. */
    private static List<String> promptKernels(String file, GpuOptions options) throws IOException {
        gpu.clearLaunches();
        try (GgufFile f = GgufFile.open(TestData.model(file));
                GpuBackend be = GpuBackend.open(device, options);
                LanguageModel model = Architectures.loadLanguageModel(f, be, new ModelOptions(64, 0));
                KvStorage kv = model.newKvStorage(64, BLOCK)) {
            int[] table = IntStream.range(0, 64).toArray();
            model.forward(prompt(table, 40), kv, 1);
            return gpu.launches().stream().map(SimulatedGpu.Launch::symbol).toList();
        }
    }

    @Test
    void aRoutingToMoreExpertsATokenThanTheDeviceKernelTakesIsRefusedNamingItsLimit() {
        int used = KernelConstants.LS_ROUTE_MAX_USED + 1;
        try (GpuBackend be = GpuBackend.open(device, GpuOptions.defaults());
                Activations logits = be.allocate(1, 128);
                Activations routing = be.allocate(1, 2 * used);
                Step step = be.beginStep()) {
            assertThatThrownBy(() -> be.routeExperts(logits, 0, 1, 1f, Gating.SOFTMAX, routing))
                    .isInstanceOf(GpuBackendException.class)
                    .hasMessageContaining("routing to " + used + " experts a token exceeds the device's "
                            + KernelConstants.LS_ROUTE_MAX_USED);
        }
        // the most experts the device routes are the engine's own limit, on every backend
        assertThat(KernelConstants.LS_ROUTE_MAX_EXPERTS).isEqualTo(Backend.MAX_ROUTED_EXPERTS);
    }

    private static final GpuOptions NO_HALVES = GpuOptions.defaults().withHalfWeights(false);

    /** What a test does with a model on the simulated device once its 40-token prompt is computed. */
    @FunctionalInterface
    private interface AfterPrompt {
        void run(GpuBackend be, LanguageModel model, KvStorage kv, int[] table) throws IOException;
    }

    /**
     * Loads {@code file} on the simulated device with {@code options}, computes a 40-token prompt,
     * then runs {@code test}.
     */
    private static void afterPrompt(String file, GpuOptions options, AfterPrompt test) throws IOException {
        try (GgufFile f = GgufFile.open(TestData.model(file));
                GpuBackend be = GpuBackend.open(device, options);
                LanguageModel model = Architectures.loadLanguageModel(f, be, new ModelOptions(64, 0));
                KvStorage kv = model.newKvStorage(64, BLOCK)) {
            int[] table = IntStream.range(0, 64).toArray();
            model.forward(prompt(table, 40), kv, 1);
            test.run(be, model, kv, table);
        }
    }

    /**
     * Greedy steps issued before the one before them is read: each takes its token where that one
     * chose it (a launch before the embedding's, inside the step's graph); after a pass whose whole
     * rows were read, the host makes the choice.
     */
    @Test
    void aStepTakingTheChoiceOfTheStepBeforeTakesItOnTheDeviceInsideItsGraph() throws IOException {
        afterPrompt("tiny-Q4_0.gguf", NO_HALVES, (be, model, kv, table) -> {
            assertThat(model.submitsAhead()).isTrue();
            PendingLogits pending = model.submit(decode(table, 40), kv, 1, null);
            gpu.clearLaunches();
            long captures = be.stats().graphCaptures();
            long replays = be.stats().graphReplays();
            for (int step = 0; step < 4; step++) {
                Batch next = Batch.builder(BLOCK)
                        .addChoice(table, 41 + step, 0, Batch.Logits.LAST)
                        .build();
                PendingLogits after = model.submit(next, kv, 1, null);
                assertThat(be.executor().anyInFlight())
                        .as("the step is out, not waited for")
                        .isTrue();
                assertThat(pending.await().rows()).isEqualTo(1);
                pending = after;
            }
            pending.await();
            assertThat(be.stats().graphCaptures() - captures)
                    .as("one graph for the steps taking choices")
                    .isOne();
            assertThat(be.stats().graphReplays() - replays).isEqualTo(4);
            List<String> step =
                    gpu.launches().stream().map(SimulatedGpu.Launch::symbol).toList();
            assertThat(step.subList(0, 2)).containsExactly("ls_take_choices", "ls_embed_q4_0");
            // a pass without logit rows (a prompt's chunk) asked for the best tokens has nothing to wait for
            Batch chunk = Batch.builder(BLOCK)
                    .add(table, 45, new int[] {3, 4}, 0, 2, Batch.Logits.NONE)
                    .build();
            assertThat(model.submit(chunk, kv, 1, null).await().rows()).isZero();
            // after a pass read whole rows, the choice is made on the host and embedded as a token
            model.forward(decode(table, 47), kv, 0);
            gpu.clearLaunches();
            Batch next = Batch.builder(BLOCK)
                    .addChoice(table, 48, 0, Batch.Logits.LAST)
                    .build();
            model.submit(next, kv, 1, null).await();
            assertThat(gpu.launches()).extracting(SimulatedGpu.Launch::symbol).doesNotContain("ls_take_choices");
        });
    }

    /**
     * A growth of a scratch slot, the step metadata or a rope table frees the buffer that steps
     * still out read: it waits for them first (a first allocation frees nothing and does not).
     */
    @Test
    void aWorkspaceGrowthWaitsForTheStepsStillOutBeforeFreeingWhatTheyRead() {
        try (HostTransfer transfer = new HostTransfer(device, 1 << 20);
                Workspace w = new Workspace(device, GpuOptions.defaults(), transfer)) {
            List<String> waits = new ArrayList<>();
            w.beforeMoving(() -> waits.add("waited"));
            w.reserve(Scratch.Slot.XQ, 1024);
            w.reserve(Scratch.Slot.XQ, 512);
            w.reserveMeta(8, 16, 64);
            Rope rope = new Rope(Rope.Style.NORMAL, 64, 10000f, 1f, null, null);
            w.ropeTable(rope, 100);
            assertThat(waits).as("first sizes and smaller asks").isEmpty();
            w.reserve(Scratch.Slot.XQ, 1 << 16);
            assertThat(waits).hasSize(1);
            w.reserveMeta(4096, 16, 64);
            assertThat(waits).hasSize(2);
            w.ropeTable(rope, 100_000);
            assertThat(waits).hasSize(3);
            long generation = w.generation();
            w.reserve(Scratch.Slot.XQ, 1 << 16);
            assertThat(waits).hasSize(3);
            assertThat(w.generation()).isEqualTo(generation);
        }
    }

    @Test
    void aMixtureOfExpertsRoutesOnTheDeviceSoEachDecodeStepIsOneGraph() throws IOException {
        afterPrompt("tiny-qwen3moe-Q8_0.gguf", NO_HALVES, (be, model, kv, table) -> {
            gpu.clearLaunches();
            for (int step = 0; step < 4; step++) {
                model.forward(decode(table, 40 + step), kv, 1);
            }
            // no host read of the router's logits splits a step: one capture, then replays
            assertThat(be.stats().graphCaptures()).isEqualTo(1);
            assertThat(be.stats().graphReplays()).isEqualTo(4);
            assertThat(gpu.launches()).allMatch(SimulatedGpu.Launch::captured);
            List<String> step =
                    gpu.launches().stream().map(SimulatedGpu.Launch::symbol).toList();
            int layers = frequency(step, "ls_route_experts_f32");
            assertThat(layers).isPositive();
            // one token's pairs go straight from its routing row to the products: no grouping launch
            assertThat(frequency(step, "ls_group_experts")).isZero();
            assertThat(step.stream().filter(s -> s.startsWith("ls_mmvq_ex_")).count())
                    .as("gate|up as one stack, then down")
                    .isEqualTo(2L * layers);
            // every layer combines its experts' outputs; all but the last in the launch that adds
            // them to the residual stream and normalizes the next layer's input
            assertThat(frequency(step, "ls_combine_add_rms_norm_v4")).isEqualTo(layers - 1);
            assertThat(frequency(step, "ls_combine_experts_f32")).isEqualTo(1);
            // the int8 inputs come from their producers: the norm before the router for the first
            // expert product, the SwiGLU for the second, the attention for the output projection
            assertThat(frequency(step, "ls_quantize_q8_0")).isZero();
        });
    }

    @Test
    void operationsLeftOutOfLaunchesAreMissingFromTheCapturedStepUntilPutBack() throws IOException {
        afterPrompt("tiny-qwen3moe-Q8_0.gguf", NO_HALVES, (be, model, kv, table) -> {
            model.forward(decode(table, 40), kv, 1);
            be.omitFromLaunches(key -> key.startsWith("routeExperts"));
            gpu.clearLaunches();
            model.forward(decode(table, 41), kv, 1);
            List<String> without =
                    gpu.launches().stream().map(SimulatedGpu.Launch::symbol).toList();
            be.omitFromLaunches(null);
            gpu.clearLaunches();
            model.forward(decode(table, 42), kv, 1);
            List<String> with =
                    gpu.launches().stream().map(SimulatedGpu.Launch::symbol).toList();
            assertThat(frequency(without, "ls_route_experts_f32")).isZero();
            assertThat(frequency(with, "ls_route_experts_f32")).isPositive();
            assertThat(without).hasSize(with.size() - frequency(with, "ls_route_experts_f32"));
            // each change drops the cached graphs: the step is captured again
            assertThat(be.stats().graphCaptures()).isEqualTo(3);
        });
    }

    /**
     * A decode step of more rows than one GEMV pass takes (and fewer than gemm-min-rows) multiplies
     * through the BLAS where every band has a half copy, which it reads once, and through GEMV
     * passes, which read the quantized weight once per 8 rows, where none has (and the tensor cores
     * are off: mmq-max-rows 0).
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void twelveDecodeRowsTakeTheBlasOverHalfCopiesAndTheGemvWithout(boolean halves) throws IOException {
        TinyStep step = tinyQ4Step(GpuOptions.defaults().withHalfWeights(halves).withMmqMaxRows(0), twelveDecodeRows());
        if (halves) {
            assertThat(step.gemms()).isPositive();
            assertThat(step.kernels()).noneMatch(k -> k.startsWith("ls_mmvq_"));
        } else {
            assertThat(step.gemms())
                    .as("BLAS products: the head's F32 weight only")
                    .isLessThanOrEqualTo(1);
            assertThat(step.kernels()).contains("ls_mmvq_q4_0_8", "ls_mmvq_q4_0_4");
        }
    }

    @Test
    void twelveDecodeRowsWithoutHalfCopiesTakeTheHalfTensorCores() throws IOException {
        TinyStep step = tinyQ4Step(GpuOptions.defaults().withHalfWeights(false), twelveDecodeRows());
        assertThat(step.kernels())
                .as("the quantized weights read once, not in GEMV passes of 8 rows")
                .contains("ls_mmh_q4_0")
                .noneMatch(k -> k.startsWith("ls_mmvq_q4_0_8"));
    }

    /**
     * Up to HALF_PRODUCTS_OVER_COPIES_MAX_ROWS rows the half tensor cores read the quantized weight
     * even where it has half copies (the same half operands as the BLAS over them); past that the BLAS
     * reads the copies.
     */
    @Test
    void rowsOverHalfCopiesTakeTheHalfTensorCoresUpToTheirLimitAndTheBlasPast() throws IOException {
        GpuOptions halves = GpuOptions.defaults().withHalfWeights(true);
        int rows = Matmul.HALF_PRODUCTS_OVER_COPIES_MAX_ROWS;
        TinyStep most = tinyQ4Step(halves, decodeRows(rows));
        TinyStep blas = tinyQ4Step(halves.withHalfTensorProducts(false), decodeRows(rows));
        assertThat(most.kernels()).contains("ls_mmh_q4_0");
        assertThat(blas.kernels()).doesNotContain("ls_mmh_q4_0");
        assertThat(most.gemms())
                .as("BLAS products: the head's only")
                .isPositive()
                .isLessThan(blas.gemms());
        TinyStep past = tinyQ4Step(halves, decodeRows(rows + 16));
        assertThat(past.kernels()).doesNotContain("ls_mmh_q4_0");
        assertThat(past.gemms()).isGreaterThan(most.gemms());
    }

    /**
     * K-quant weights take the half tensor cores where they have no half copy (instead of GEMV passes
     * below gemm-min-rows and weights dequantized for the BLAS from it), every band of a fused weight
     * through its own format's kernel (a Q4_K_M file's qkv: Q4_K, Q4_K, Q6_K), so that no product of
     * 16 decode rows or a 40-token prompt goes through the BLAS; and the BLAS over their copies where
     * they have them. (Each file's output projection is Q6_K: 16 rows of logits take ls_mmh_q6_k,
     * the prompt's one row the GEMV.)
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "tiny-Q4_K_M.gguf, ls_mmh_q4_k ls_mmh_q6_k",
        "tiny-Q5_K_M.gguf, ls_mmh_q5_k ls_mmh_q6_k",
        "tiny-Q3_K_M.gguf, ls_mmh_q3_k ls_mmh_q4_k ls_mmh_q5_k",
        "tiny-Q2_K.gguf, ls_mmh_q2_k ls_mmh_q3_k",
        "tiny-Q6_K.gguf, ls_mmh_q6_k"
    })
    void kQuantWeightsTakeTheHalfTensorCoresWhereTheyHaveNoHalfCopy(String file, String kernels) throws IOException {
        String[] mmh = kernels.split(" ");
        GpuOptions none = GpuOptions.defaults().withHalfWeights(false);
        TinyStep decode = tinyStep(file, none, decodeRows(16));
        assertThat(decode.kernels()).contains(mmh).contains("ls_mmh_q6_k").doesNotContain("ls_mmh_q4_0");
        assertThat(decode.gemms()).as("BLAS products").isZero();
        int[] prompt = new int[40];
        Arrays.fill(prompt, 2);
        TinyStep promptStep = tinyStep(
                file,
                none,
                Batch.builder(BLOCK)
                        .add(new int[] {0, 1, 2}, 0, prompt, Batch.Logits.LAST)
                        .build());
        assertThat(promptStep.kernels()).contains(mmh);
        assertThat(promptStep.gemms()).as("BLAS products").isZero();
        TinyStep copies = tinyStep(file, GpuOptions.defaults().withHalfWeights(true), decodeRows(16));
        assertThat(copies.kernels()).doesNotContain(mmh);
        assertThat(copies.gemms()).isGreaterThan(decode.gemms());
        TinyStep off = tinyStep(file, none.withHalfTensorProducts(false), decodeRows(16));
        assertThat(off.kernels()).doesNotContain(mmh);
    }

    /**
     * AMD's matrix cores (MFMA on gfx90a and gfx942, WMMA on gfx11) take the same paths: a K-quant
     * file's decode rows and prompt without half copies multiply through {@code ls_mmh_*} (their AMD
     * bodies, never yet run on AMD hardware: docs/amd.md), not the BLAS over dequantized bands.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gfx90a", "gfx942", "gfx1100"})
    void amdMatrixCoresTakeTheHalfProductsOverKQuantWeightsToo(String gfx) throws IOException {
        GpuOptions none = GpuOptions.defaults().withHalfWeights(false);
        int[] prompt = new int[40];
        Arrays.fill(prompt, 2);
        try (SimulatedGpu amd = SimulatedGpu.open(2L << 30, DeviceArch.ofGcnArchName(gfx))) {
            TinyStep decode = tinyStep(amd, "tiny-Q4_K_M.gguf", none, decodeRows(16));
            assertThat(decode.kernels()).contains("ls_mmh_q4_k", "ls_mmh_q6_k");
            assertThat(decode.gemms()).as("BLAS products").isZero();
            TinyStep promptStep = tinyStep(
                    amd,
                    "tiny-Q4_K_M.gguf",
                    none,
                    Batch.builder(BLOCK)
                            .add(new int[] {0, 1, 2}, 0, prompt, Batch.Logits.LAST)
                            .build());
            assertThat(promptStep.kernels()).contains("ls_mmh_q4_k", "ls_mmh_q6_k");
            assertThat(promptStep.gemms()).as("BLAS products").isZero();
            TinyStep off = tinyStep(amd, "tiny-Q4_K_M.gguf", none.withHalfTensorProducts(false), decodeRows(16));
            assertThat(off.kernels()).noneMatch(k -> k.startsWith("ls_mmh_"));
        }
    }

    /**
     * From 16 decode rows the tensor-core decode kernels over an F16 cache load a round ahead
     * (gpt-oss's heads of 64); fewer rows (a bucket of 12) keep one round, and so does a Q8_0 cache.
     */
    @Test
    void manyDecodeRowsOverAnF16CacheLoadTheirKeysAndValuesARoundAhead() throws IOException {
        GpuOptions none = GpuOptions.defaults().withHalfWeights(false);
        String file = "tiny-gpt-oss-MXFP4.gguf";
        assertThat(tinyStep(file, none, decodeRows(Attention.TWO_ROUNDS_MIN_ROWS))
                        .kernels())
                .anyMatch(k -> k.startsWith("ls_attention_dmma2_d64"))
                .noneMatch(k -> k.startsWith("ls_attention_dmma_d64"));
        assertThat(tinyStep(file, none, decodeRows(Attention.TWO_ROUNDS_MIN_ROWS - 4))
                        .kernels())
                .anyMatch(k -> k.startsWith("ls_attention_dmma_d64"))
                .noneMatch(k -> k.startsWith("ls_attention_dmma2"));
    }

    /** The prompt keeps the GEMV's exact block sums below gemm-min-rows, half copies or not. */
    @Test
    void aTwelveTokenPromptTakesTheGemvOverHalfCopies() throws IOException {
        int[] prompt = new int[Matmul.HALF_COPY_MIN_ROWS];
        Arrays.fill(prompt, 2);
        TinyStep step = tinyQ4Step(
                GpuOptions.defaults().withHalfWeights(true),
                Batch.builder(BLOCK)
                        .add(new int[] {0}, 0, prompt, Batch.Logits.LAST)
                        .build());
        assertThat(step.gemms()).as("BLAS products: the head's F32 weight only").isLessThanOrEqualTo(1);
        assertThat(step.kernels()).contains("ls_mmvq_q4_0_8", "ls_mmvq_q4_0_4");
    }

    /**
     * A one-token Q4_0 GEMV runs blocks of LS_MMVQ_ONE_ROWS rows, of LS_MMVQ_WAVE_THREADS threads
     * where its grid fits the device at once (the tiny model's small weights), else of
     * LS_MMVQ_NARROW_THREADS (2-3 tokens: LS_MMVQ_FEW_ROWS rows); the K-quant GEMVs keep
     * LS_MMV_NARROW_ROWS rows of LS_MMV_THREADS.
     */
    @Test
    void oneTokenGemvsLaunchTheirFormatsBlocks() throws IOException {
        TinyStep q4 = tinyQ4Step(NO_HALVES, decodeRows(1));
        assertThat(q4.launches())
                .filteredOn(l -> l.symbol().equals("ls_mmvq_q4_0_1"))
                .isNotEmpty()
                .allSatisfy(l -> assertThat(l.config().blockX()).isEqualTo(KernelConstants.LS_MMVQ_WAVE_THREADS));
        TinyStep k = tinyStep("tiny-Q4_K_M.gguf", NO_HALVES, decodeRows(1));
        assertThat(k.launches())
                .filteredOn(l -> l.symbol().startsWith("ls_mmvk_") && l.symbol().endsWith("_1"))
                .isNotEmpty()
                .allSatisfy(l -> assertThat(l.config().blockX()).isEqualTo(KernelConstants.LS_MMV_THREADS));
        assertThat(WeightFormat.Q4_0.gemvRows(1)).isEqualTo(KernelConstants.LS_MMVQ_ONE_ROWS);
        assertThat(WeightFormat.Q8_0.gemvRows(3)).isEqualTo(KernelConstants.LS_MMVQ_FEW_ROWS);
        assertThat(WeightFormat.Q4_0.gemvRows(KernelConstants.LS_MMV_WIDE_COLS))
                .isEqualTo(KernelConstants.LS_MMV_WIDE_ROWS);
        assertThat(WeightFormat.Q4_K.gemvRows(1)).isEqualTo(KernelConstants.LS_MMV_NARROW_ROWS);
        int sms = 132;
        long fits = (long) KernelConstants.LS_MMVQ_ONE_ROWS * KernelConstants.LS_MMVQ_Q4_0_WAVE_BLOCKS * sms;
        assertThat(WeightFormat.Q4_0.gemvThreads(1, fits, sms)).isEqualTo(KernelConstants.LS_MMVQ_WAVE_THREADS);
        assertThat(WeightFormat.Q4_0.gemvThreads(1, fits + 1, sms)).isEqualTo(KernelConstants.LS_MMVQ_NARROW_THREADS);
        assertThat(WeightFormat.Q4_0.gemvThreads(1, 4096, sms))
                .as("the 8B's output projection")
                .isEqualTo(KernelConstants.LS_MMVQ_WAVE_THREADS);
        assertThat(WeightFormat.Q4_0.gemvThreads(1, 6144, sms))
                .as("the 8B's qkv")
                .isEqualTo(KernelConstants.LS_MMVQ_NARROW_THREADS);
        assertThat(WeightFormat.Q8_0.gemvThreads(2, 64, sms)).isEqualTo(KernelConstants.LS_MMVQ_NARROW_THREADS);
        assertThat(WeightFormat.Q4_0.gemvThreads(KernelConstants.LS_MMV_WIDE_COLS, 64, sms))
                .isEqualTo(KernelConstants.LS_MMV_THREADS);
        assertThat(WeightFormat.Q4_K.gemvThreads(1, 64, sms)).isEqualTo(KernelConstants.LS_MMV_THREADS);
    }

    /** The launches one forward pass made (their symbols first), and the BLAS products it ran. */
    private record TinyStep(List<SimulatedGpu.Launch> launches, int gemms) {
        List<String> kernels() {
            return launches.stream().map(SimulatedGpu.Launch::symbol).toList();
        }
    }

    /** One forward pass of tiny-Q4_0 over {@code batch} on a backend with {@code options}. */
    private TinyStep tinyQ4Step(GpuOptions options, Batch batch) throws IOException {
        return tinyStep("tiny-Q4_0.gguf", options, batch);
    }

    /** One forward pass of the test model {@code file} over {@code batch} on a backend with {@code options}. */
    private TinyStep tinyStep(String file, GpuOptions options, Batch batch) throws IOException {
        return tinyStep(gpu, file, options, batch);
    }

    /** One forward pass of {@code file} over {@code batch} on {@code sim}'s first device. */
    private static TinyStep tinyStep(SimulatedGpu sim, String file, GpuOptions options, Batch batch)
            throws IOException {
        try (GgufFile f = GgufFile.open(TestData.model(file));
                GpuBackend be = GpuBackend.open(sim.pool().device(0), options);
                LanguageModel model = Architectures.loadLanguageModel(f, be, new ModelOptions(64, 0));
                KvStorage kv = model.newKvStorage(64, BLOCK)) {
            sim.clearLaunches();
            int gemmsBefore = sim.gemms().size(); // the simulation keeps every test's
            model.forward(batch, kv, 1);
            return new TinyStep(List.copyOf(sim.launches()), sim.gemms().size() - gemmsBefore);
        }
    }

    /** A decode step of HALF_COPY_MIN_ROWS sequences, one row each. */
    private static Batch twelveDecodeRows() {
        return decodeRows(Matmul.HALF_COPY_MIN_ROWS);
    }

    /** A decode step of {@code sequences} sequences, one row each. */
    private static Batch decodeRows(int sequences) {
        Batch.Builder rows = Batch.builder(BLOCK);
        for (int s = 0; s < sequences; s++) {
            rows.add(new int[] {s}, 3, new int[] {2}, Batch.Logits.LAST);
        }
        return rows.build();
    }

    @Test
    void everyDecodeStepOfABucketRecordsTheSameOperationsAndReplaysOneGraph() throws IOException {
        afterPrompt("tiny-Q4_0.gguf", NO_HALVES, (be, model, kv, table) -> {
            assertThat(gpu.gemms())
                    .as("a 40-row prompt multiplies through the BLAS")
                    .isNotEmpty();
            gpu.clearLaunches();
            for (int step = 0; step < 5; step++) {
                model.forward(decode(table, 40 + step), kv, 1);
            }
            assertThat(be.stats().graphCaptures()).isEqualTo(1);
            assertThat(be.stats().graphReplays()).isEqualTo(5);
            List<String> step = gpu.launches().stream()
                    .filter(SimulatedGpu.Launch::captured)
                    .map(SimulatedGpu.Launch::symbol)
                    .toList();
            assertThat(gpu.launches()).allMatch(SimulatedGpu.Launch::captured);
            // the fusions: norms, SwiGLU and the attention write the int8 input of the Q4_0 products
            // after them, the key rope writes the cache, each residual add runs inside the next norm
            // (the last one stands alone: a gather follows it)
            int layers = frequency(step, "ls_rope_f32");
            assertThat(layers).as("one rope per layer for queries and keys").isPositive();
            assertThat(frequency(step, "ls_rms_norm_q8_v4")).isEqualTo(2 * layers);
            assertThat(frequency(step, "ls_swiglu_q8")).isEqualTo(layers);
            assertThat(frequency(step, "ls_quantize_q8_0")).isZero();
            assertThat(frequency(step, "ls_vector_add_f32")).isEqualTo(1);
            assertThat(step).contains("ls_mmvq_q4_0_1", "ls_topk_f32").doesNotContain("ls_kv_write_f16");
            // one row needs splits to fill the GPU: one launch a layer, whose last split merges
            assertThat(step.stream().filter(k -> k.startsWith("ls_attention")))
                    .hasSize(layers)
                    .allMatch(k -> k.startsWith("ls_attention_split_d"));
        });
    }

    /**
     * On a device of compute capability 9 (the simulated one) each kernel of a "waits" module
     * launches before its predecessor ends, and no other kernel does; with the option off none does.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void kernelsThatWaitForTheirPredecessorLaunchBeforeItEnds(boolean on) throws IOException {
        GpuOptions options = GpuOptions.defaults().withHalfWeights(false).withDependentLaunches(on);
        Map<String, Kernel> bySymbol = Arrays.stream(Kernel.values()).collect(Collectors.toMap(Kernel::symbol, k -> k));
        try (GgufFile f = GgufFile.open(TestData.model("tiny-Q4_0.gguf"));
                GpuBackend be = GpuBackend.open(device, options);
                LanguageModel model = Architectures.loadLanguageModel(f, be, new ModelOptions(64, 0));
                KvStorage kv = model.newKvStorage(64, BLOCK)) {
            gpu.clearLaunches(); // the load's repacking launches are ordinary ones
            int[] table = IntStream.range(0, 64).toArray();
            model.forward(prompt(table, 5), kv, 1);
            model.forward(decode(table, 5), kv, 1);
            assertThat(gpu.launches()).isNotEmpty().allSatisfy(l -> assertThat(
                            l.config().dependent())
                    .as(l.symbol())
                    .isEqualTo(on && bySymbol.get(l.symbol()).module().waitsForPredecessor()));
            assertThat(gpu.launches()).anyMatch(l -> l.symbol().startsWith("ls_mmvq_q4_0"));
        }
    }

    @Test
    void promptTilesOfHeadsOf64And128TakeTheTensorCoresWhereTheDeviceHasThem() {
        AttentionShape d128 = new AttentionShape(32, 8, 128, 0.1f, true, 0, 0f);
        AttentionShape d64 = new AttentionShape(8, 2, 64, 0.1f, true, 0, 0f);
        AttentionShape d32 = new AttentionShape(8, 4, 32, 0.1f, true, 0, 0f);
        AttentionShape wideGroup = new AttentionShape(16, 1, 64, 0.1f, true, 0, 0f);
        assertThat(Attention.tiledKernel(d128, true, false)).isEqualTo(Kernel.ATTENTION_MMA_D128);
        assertThat(Attention.tiledKernel(d128, false, false)).isEqualTo(Kernel.ATTENTION_TILE_D128);
        assertThat(Attention.tiledKernel(d64, true, false)).isEqualTo(Kernel.ATTENTION_MMA_D64);
        assertThat(Attention.tiledKernel(d32, true, false)).isEqualTo(Kernel.ATTENTION_TILE_D32);
        assertThat(Attention.tiledKernel(wideGroup, true, false)).isNull();
        assertThat(Attention.tiledKernel(d128, true, true)).isEqualTo(Kernel.ATTENTION_MMA_Q8_D128);
        assertThat(Attention.tiledKernel(d64, false, true)).isEqualTo(Kernel.ATTENTION_TILE_Q8_D64);
        assertThat(Attention.tiledKernel(d32, true, true)).isEqualTo(Kernel.ATTENTION_TILE_Q8_D32);
    }

    /**
     * A Q8_0 cache: the attention's own launch quantizes each row's key and value into it (the
     * rope's fused write stores halves, so it is not fused), every attention kernel is a Q8_0 one,
     * decode steps still replay one graph, and the cache takes the type's bytes.
     */
    @ParameterizedTest
    @ValueSource(strings = {"tiny-qwen3-Q8_0.gguf", "tiny-Q4_0.gguf", "tiny-qwen3moe-Q8_0.gguf"})
    void aQ8CacheIsWrittenAndReadByTheQ8Kernels(String file) throws IOException {
        try (GgufFile f = GgufFile.open(TestData.model(file));
                GpuBackend be = GpuBackend.open(device, GpuOptions.defaults());
                LanguageModel model = Architectures.loadLanguageModel(
                        f, be, new ModelOptions(64, 0).withKvCacheType(KvCacheType.Q8_0))) {
            long before = device.allocatorStats().bytesInUse();
            try (KvStorage kv = model.newKvStorage(64, BLOCK)) {
                assertThat(kv.type()).isEqualTo(KvCacheType.Q8_0);
                assertThat(kv.byteSize())
                        .isEqualTo(kv.layers() * 64L * BLOCK * KvCacheType.Q8_0.bytesPerSlot(kv.kvDim()));
                assertThat(device.allocatorStats().bytesInUse() - before)
                        .as("device bytes: the type's, not halves'")
                        .isBetween(kv.byteSize(), kv.byteSize() + kv.layers() * 4 * 4096L);
                int[] table = IntStream.range(0, 64).toArray();
                model.forward(prompt(table, 40), kv, 1); // tiled attention
                model.forward(prompt(table, 5), kv, 0);
                List<String> prompts =
                        gpu.launches().stream().map(SimulatedGpu.Launch::symbol).toList();
                gpu.clearLaunches();
                model.forward(decode(table, 45), kv, 1);
                List<String> step =
                        gpu.launches().stream().map(SimulatedGpu.Launch::symbol).toList();
                int layers = frequency(step, "ls_kv_write_q8");
                assertThat(layers).as("a cache write per layer").isEqualTo(kv.layers());
                assertThat(step.stream().filter(k -> k.startsWith("ls_attention_")))
                        .as("the decode step's attention")
                        .hasSize(layers)
                        .allMatch(k -> k.startsWith("ls_attention_split_q8_d"));
                assertThat(prompts.stream().filter(k -> k.startsWith("ls_attention_")))
                        .as("the prompts' attention")
                        .isNotEmpty()
                        .allMatch(k -> k.contains("_q8_"));
                assertThat(prompts).contains("ls_kv_write_q8").doesNotContain("ls_kv_write_f16");
                long replays = be.stats().graphReplays();
                for (int s = 1; s < 4; s++) {
                    model.forward(decode(table, 45 + s), kv, 1);
                }
                assertThat(be.stats().graphReplays() - replays)
                        .as("later steps replay")
                        .isEqualTo(3);
            }
        }
    }

    @Test
    void aQ8CacheIsRefusedAtLoadWhereNoKernelReadsItsShape() {
        GpuBackend be = GpuBackend.open(device, GpuOptions.defaults());
        try (be) {
            assertThatThrownBy(() -> be.checkKvCacheShape(KvCacheType.Q8_0, 32, 2, 128))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("at most 8 query heads per kv head")
                    .hasMessageContaining("f16 KV cache");
            assertThatThrownBy(() -> be.checkKvCacheShape(KvCacheType.Q8_0, 8, 8, 160))
                    .hasMessageContaining("heads of 32, 64, 96, 128 or 256 values");
            be.checkKvCacheShape(KvCacheType.Q8_0, 32, 8, 128);
            be.checkKvCacheShape(KvCacheType.F16, 32, 2, 160);
        }
    }

    @Test
    void onlyTheSm90CodeObjectsCarryTheWait() {
        assertThat(Workspace.dependentLaunchesRun(DeviceArch.SM_90)).isTrue();
        assertThat(Workspace.dependentLaunchesRun(DeviceArch.SM_80)).isFalse();
        assertThat(Workspace.dependentLaunchesRun(DeviceArch.ofComputeCapability(10, 0)))
                .as("later GPUs compile the sm_80 PTX")
                .isFalse();
        assertThat(Workspace.dependentLaunchesRun(DeviceArch.GFX942)).isFalse();
    }

    @Test
    void theQuantizedProductsTakeMatrixInstructionsWhereMmqHasAPathForThem() {
        assertThat(GpuBackend.matrixCores(DeviceArch.SM_80)).isTrue();
        assertThat(GpuBackend.matrixCores(DeviceArch.SM_90)).isTrue();
        assertThat(GpuBackend.matrixCores(DeviceArch.ofComputeCapability(7, 5))).isFalse();
        assertThat(GpuBackend.matrixCores(DeviceArch.GFX90A))
                .as("MFMA 16x16x16 i8 and f16")
                .isTrue();
        assertThat(GpuBackend.matrixCores(DeviceArch.GFX942))
                .as("MFMA 16x16x32 i8, 16x16x16 f16")
                .isTrue();
        assertThat(GpuBackend.matrixCores(DeviceArch.GFX1100))
                .as("WMMA iu8 and f16")
                .isTrue();
        assertThat(GpuBackend.matrixCores(DeviceArch.ofGcnArchName("gfx1030")))
                .as("RDNA2: no matrix instructions, the plain loop")
                .isFalse();
    }

    /**
     * qwen3's and gemma3's per-head q/k norms run inside the rope's launch, which also writes the
     * cache: a step launches one ls_rope_norm_f32 per layer and neither the norms' own kernel nor
     * the plain rope nor the cache write.
     */
    @ParameterizedTest
    @ValueSource(strings = {"tiny-qwen3-Q8_0.gguf", "tiny-qwen3-F16.gguf", "tiny-gemma3-Q8_0.gguf"})
    void theQueryAndKeyNormsOfAStepRunInsideItsRopes(String file) throws IOException {
        try (GgufFile f = GgufFile.open(TestData.model(file));
                GpuBackend be = GpuBackend.open(device, GpuOptions.defaults().withHalfWeights(false));
                LanguageModel model = Architectures.loadLanguageModel(f, be, new ModelOptions(64, 0));
                KvStorage kv = model.newKvStorage(64, BLOCK)) {
            int[] table = IntStream.range(0, 64).toArray();
            // a short prompt: no BLAS product (the simulator keeps its GEMMs for the whole class)
            model.forward(prompt(table, 5), kv, 1);
            List<String> prompt =
                    gpu.launches().stream().map(SimulatedGpu.Launch::symbol).toList();
            gpu.clearLaunches();
            model.forward(decode(table, 5), kv, 1);
            List<String> step =
                    gpu.launches().stream().map(SimulatedGpu.Launch::symbol).toList();
            int layers = frequency(step, "ls_rope_norm_f32");
            assertThat(layers).as("one per layer").isPositive();
            assertThat(step).doesNotContain("ls_head_rms_norm_f32", "ls_rope_f32", "ls_kv_write_f16");
            assertThat(frequency(prompt, "ls_rope_norm_f32")).as("the prompt's").isEqualTo(layers);
            assertThat(prompt).doesNotContain("ls_head_rms_norm_f32", "ls_rope_f32", "ls_kv_write_f16");
        }
    }

    /**
     * Windowed layers in a KV group of their own (tiny-gemma3: layers 0 and 2, window 8): their
     * attention and fused cache writes read the step metadata's second slots and tables, decode
     * steps still replay one graph while the windowed tables give blocks back, and the storage's
     * memory is each group's.
     */
    @Test
    void windowedLayersOfTheirOwnKvGroupReadTheSecondTablesAndDecodeStepsStillReplayOneGraph() throws IOException {
        long inUse = device.allocatorStats().bytesInUse();
        try (GgufFile f = GgufFile.open(TestData.model("tiny-gemma3-Q8_0.gguf"));
                GpuBackend be = GpuBackend.open(device, GpuOptions.defaults().withHalfWeights(false));
                LanguageModel model = Architectures.loadLanguageModel(f, be, new ModelOptions(64, 0));
                KvStorage kv = model.newKvStorage(new int[] {1, 0, 1, 0}, new int[] {64, 8}, BLOCK)) {
            assertThat(kv.byteSize()).isEqualTo(2L * 2 * (2 * 64 + 2 * 8) * BLOCK * model.kvDim());
            int[] global = IntStream.range(0, 64).toArray();
            int[] windowed = new int[64];
            windowed[0] = 1;
            windowed[1] = 2;
            windowed[2] = 3;
            model.forward(prompt2(global, windowed, 40), kv, 1);
            gpu.clearLaunches();
            for (int step = 0; step < 5; step++) {
                int position = 40 + step;
                // blocks wholly before position - 7 are holes (0), as the scheduler leaves them
                int[] w = windowed.clone();
                for (int b = 0; b < (position - 7) / BLOCK; b++) {
                    w[b] = 0;
                }
                model.forward(
                        Batch.builder(BLOCK)
                                .add(new int[][] {global, w}, position, new int[] {7}, 0, 1, Batch.Logits.LAST)
                                .build(),
                        kv,
                        1);
            }
            assertThat(be.stats().graphCaptures()).isEqualTo(1);
            assertThat(be.stats().graphReplays()).isEqualTo(5);
            assertThat(gpu.launches()).allMatch(SimulatedGpu.Launch::captured);
            assertThatThrownBy(() -> model.forward(
                            Batch.builder(BLOCK)
                                    .add(new int[][] {global, {9, 9, 9, 9}}, 40, new int[] {7}, 0, 1, Batch.Logits.LAST)
                                    .build(),
                            kv,
                            1))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("group 1");
        }
        assertThat(device.allocatorStats().bytesInUse())
                .as("device memory in use")
                .isEqualTo(inUse);
    }

    private static Batch prompt2(int[] global, int[] windowed, int n) {
        int[] tokens = new int[n];
        for (int i = 0; i < n; i++) {
            tokens[i] = 1 + i % 7;
        }
        return Batch.builder(BLOCK)
                .add(new int[][] {global, windowed}, 0, tokens, 0, n, Batch.Logits.LAST)
                .build();
    }

    /**
     * gpt-oss's 8/2 heads of 64 take the tensor-core decode kernel, whose heads a row alone cuts in
     * two parts and 40 rows leave in one: the invariant backend gives every row a row alone's.
     */
    @ParameterizedTest
    @ValueSource(strings = {"tiny-qwen3moe-Q8_0.gguf", "tiny-gpt-oss-MXFP4.gguf"})
    void aBatchInvariantBackendRunsEveryRowThroughTheKernelsOfARowAlone(String file) throws IOException {
        GpuOptions invariant = GpuOptions.defaults().withHalfWeights(false).withBatchInvariant(true);
        afterPrompt(file, invariant, (be, model, kv, table) -> {
            // 40 rows: no BLAS product, no prompt tiles, no GEMV pass over several rows
            assertThat(gpu.gemms()).isEmpty();
            List<String> prompt =
                    gpu.launches().stream().map(SimulatedGpu.Launch::symbol).toList();
            assertThat(prompt)
                    .noneMatch(k -> k.startsWith("ls_attention_tile"))
                    .noneMatch(k -> k.startsWith("ls_attention_mma"))
                    .noneMatch(k -> k.startsWith("ls_attention_dmma2"))
                    .noneMatch(k -> k.matches("ls_mmvq_q8_0_[2-8].*"));
            if (file.contains("Q8_0")) {
                assertThat(prompt).anyMatch(k -> k.startsWith("ls_mmvq_q8_0_1"));
            }
            // every attention launch splits a row's positions, and cuts its heads, as one row alone does
            Set<List<Integer>> grids = gpu.launches().stream()
                    .filter(l -> l.symbol().matches("ls_attention_(split|dmma)_d.*"))
                    .map(l -> List.of(l.config().gridX(), l.config().gridZ()))
                    .collect(Collectors.toSet());
            gpu.clearLaunches();
            model.forward(decode(table, 40), kv, 1);
            gpu.launches().stream()
                    .filter(l -> l.symbol().matches("ls_attention_(split|dmma)_d.*"))
                    .forEach(l ->
                            grids.add(List.of(l.config().gridX(), l.config().gridZ())));
            assertThat(grids).hasSize(1);
        });
    }

    @Test
    void aMovedWorkspaceBufferMakesTheNextStepCaptureAgainWithoutAnyoneInvalidatingGraphs() throws IOException {
        try (GgufFile f = GgufFile.open(TestData.model("tiny-Q8_0.gguf"));
                GpuBackend be = GpuBackend.open(device, GpuOptions.defaults().withHalfWeights(false));
                LanguageModel model = Architectures.loadLanguageModel(f, be, new ModelOptions(64, 0));
                KvStorage kv = model.newKvStorage(64, BLOCK)) {
            // a long table over few blocks: positions far apart, cache contents beside the point
            int[] table = IntStream.range(0, 400).map(i -> i % 64).toArray();
            model.forward(decode(table, 10), kv, 1);
            model.forward(decode(table, 11), kv, 1);
            assertThat(be.stats().graphCaptures()).isEqualTo(1);
            model.forward(decode(table, 5000), kv, 1); // past the rope table's 4096 positions: it grows
            model.forward(decode(table, 5001), kv, 1);
            assertThat(be.stats().graphCaptures())
                    .as("one capture after the growth")
                    .isEqualTo(2);
            assertThat(be.stats().graphReplays()).isEqualTo(4);
        }
    }

    @Test
    void anEncoderPassEmbedsTokensAndPositionsInOneStep() throws IOException {
        try (GgufFile f = GgufFile.open(TestData.model("all-MiniLM-L6-v2-q8_0.gguf"));
                GpuBackend be = GpuBackend.open(device, GpuOptions.defaults());
                EmbeddingModel model = Architectures.loadEmbeddingModel(f, be, new ModelOptions(256, 0))) {
            float[][] vectors = model.embed(List.of(new int[] {101, 2023, 102}, new int[] {101, 7592, 2088, 102}));
            assertThat(vectors).hasNumberOfRows(2);
            assertThat(gpu.launches())
                    .extracting(SimulatedGpu.Launch::symbol)
                    .contains(
                            "ls_embed_q8_0",
                            "ls_layer_norm_f32",
                            "ls_encoder_attention_d32",
                            "ls_gelu_f32",
                            "ls_pool_f32");
            GpuBackend.Stats stats = be.stats();
            assertThat(stats.eagerSteps() + stats.graphReplays())
                    .as("a pass of encoder rows is one run")
                    .isEqualTo(1);
        }
    }

    private static int frequency(List<String> symbols, String symbol) {
        return (int) symbols.stream().filter(symbol::equals).count();
    }

    /** The first {@code n} tokens of one sequence, whose last row's logits are asked for. */
    private static Batch prompt(int[] table, int n) {
        int[] tokens = new int[n];
        Arrays.fill(tokens, 1);
        return Batch.builder(BLOCK).add(table, 0, tokens, Batch.Logits.LAST).build();
    }

    /** One token of one sequence at {@code position}. */
    private static Batch decode(int[] table, int position) {
        return Batch.builder(BLOCK)
                .add(table, position, new int[] {2}, Batch.Logits.LAST)
                .build();
    }
}
