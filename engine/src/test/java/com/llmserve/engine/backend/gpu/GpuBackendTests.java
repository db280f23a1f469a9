package com.llmserve.engine.backend.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.Gating;
import com.llmserve.engine.backend.Glu;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.Pooling;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.backend.Step;
import com.llmserve.engine.backend.Unary;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufTensor;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RequiresGpu;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every operation of the GPU backend against the CPU backend (the reference: llama.cpp's
 * numerics) on random inputs: the same calls on both, the results compared by relative L2 error.
 * GEMV paths multiply the same Q8 activations as the CPU and differ only in float summation order;
 * the BLAS path rounds operands to half (about 5e-4 relative); attention skips the CPU's rounding
 * of softmax weights to half.
 */
@RequiresGpu
class GpuBackendTests {

    private static DevicePool pool;
    private static GpuBackend gpu;
    private static CpuBackend cpu;

    @BeforeAll
    static void open(DevicePool devices) {
        pool = devices;
        gpu = GpuBackend.open(pool.device(0), GpuOptions.defaults());
        cpu = new CpuBackend(2);
    }

    @AfterAll
    static void close() {
        if (gpu != null) {
            gpu.close();
        }
        if (cpu != null) {
            cpu.close();
        }
    }

    /** Both cache types; a Q8_0 cache for a shape no Q8_0 kernel reads is refused, naming the setting. */
    @Test
    void aQ8KvCacheIsStoredWhereItsKernelsReadTheShape() {
        assertThat(gpu.kvCacheTypes()).containsExactlyInAnyOrder(KvCacheType.F16, KvCacheType.Q8_0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> gpu.checkKvCacheShape(KvCacheType.Q8_0, 16, 1, 64))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("q8_0")
                .hasMessageContaining("llmserve.engine.kv-cache-type");
    }

    static Stream<Arguments> typesAndBatches() {
        List<Arguments> out = new ArrayList<>();
        for (GgmlType t : new GgmlType[] {
            GgmlType.Q4_0,
            GgmlType.Q8_0,
            GgmlType.Q4_K,
            GgmlType.Q6_K,
            GgmlType.F16,
            GgmlType.F32,
            GgmlType.Q4_1,
            GgmlType.Q5_0,
            GgmlType.Q5_1,
            GgmlType.Q2_K,
            GgmlType.Q3_K,
            GgmlType.Q5_K,
            GgmlType.BF16
        }) {
            for (int tokens : new int[] {1, 3, 8, 11, 33, 70}) {
                out.add(Arguments.of(t, tokens));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} x {1} tokens")
    @MethodSource("typesAndBatches")
    void matmulMatchesTheCpuBackend(GgmlType type, int tokens) {
        Random r = new Random(type.ordinal() * 31L + tokens);
        int rows = 201; // odd: the last two-row GEMV block has one row
        int cols = 512;
        GgufTensor w = RandomTensors.tensor("w", type, rows, cols, r);
        float[] x = RandomTensors.gaussian(tokens * cols, r);
        float[] ref = product(cpu, List.of(w), x, tokens, cols, rows);
        float[] got = product(gpu, List.of(w), x, tokens, cols, rows);
        report(
                "matmul " + type + " x" + tokens,
                ref,
                got,
                tolerance(type, tokens >= gpu.options().gemmMinRows()));
    }

    /**
     * The one-token Q4_0 / Q8_0 GEMV's two block sizes over rows longer than a block's threads: a
     * grid that fits the device at once (128 threads, each taking two of a row's 256 weight blocks)
     * and one too large for any device of up to 200 multiprocessors (64 threads, two of 128 each).
     */
    @ParameterizedTest(name = "{0} {1} x {2}")
    @CsvSource({"Q4_0, 201, 8192", "Q8_0, 201, 8192", "Q4_0, 9605, 4096", "Q8_0, 9605, 4096"})
    void oneTokenGemvBlocksOfEitherSizeMatchTheCpuBackend(GgmlType type, int rows, int cols) {
        Random r = new Random(rows * 7L + type.ordinal());
        GgufTensor w = RandomTensors.tensor("w", type, rows, cols, r);
        float[] x = RandomTensors.gaussian(cols, r);
        report(
                "matmul " + type + " x1 " + rows + "x" + cols,
                product(cpu, List.of(w), x, 1, cols, rows),
                product(gpu, List.of(w), x, 1, cols, rows),
                tolerance(type, false));
    }

    static Stream<Arguments> int8TensorCoreBatches() {
        List<Arguments> out = new ArrayList<>();
        for (GgmlType t : new GgmlType[] {GgmlType.Q4_0, GgmlType.Q8_0}) {
            // 9 / 16, 24, 40, 63-64: ls_mmh_*'s 2, 4, 6 and 8 token tiles; 65: two column blocks
            for (int tokens : new int[] {9, 16, 24, 40, 63, 64, 65, 128}) {
                out.add(Arguments.of(t, tokens));
            }
        }
        return out.stream();
    }

    /**
     * The int8 tensor-core products (sm_80 on; MFMA/WMMA on AMD) sum the same exact block dot products as the GEMV
     * kernels in another float order: against the CPU as close as the GEMV, against the GEMV closer
     * still; rows (200) and tokens not multiples of the 64 x 64 block tile.
     */
    @ParameterizedTest(name = "{0} x {1} tokens")
    @MethodSource("int8TensorCoreBatches")
    void int8TensorCoreProductsMatchTheGemvAndTheCpuBackend(GgmlType type, int tokens) {
        assumeTrue(
                GpuBackend.matrixCores(gpu.device().info().arch()),
                "int8 tensor-core products run on NVIDIA sm_80 on, AMD gfx90a, gfx942 and gfx11");
        Random r = new Random(type.ordinal() * 17L + tokens);
        int rows = 200;
        int cols = 1024;
        GgufTensor w = RandomTensors.tensor("w", type, rows, cols, r);
        float[] x = RandomTensors.gaussian(tokens * cols, r);
        float[] ref = product(cpu, List.of(w), x, tokens, cols, rows);
        float[] mmq;
        try (GpuBackend tensorCores = GpuBackend.open(
                pool.device(0),
                GpuOptions.defaults()
                        .withHalfWeights(false)
                        .withHalfTensorProducts(false)
                        .withGemmMinRows(9)
                        .withMmqMaxRows(128))) {
            mmq = product(tensorCores, List.of(w), x, tokens, cols, rows);
        }
        float[] gemv;
        // (no half copies: from HALF_COPY_MIN_ROWS rows a weight with them takes the BLAS)
        try (GpuBackend gemvOnly = GpuBackend.open(
                pool.device(0),
                GpuOptions.defaults().withHalfWeights(false).withMmqMaxRows(0).withGemmMinRows(1 << 20))) {
            gemv = product(gemvOnly, List.of(w), x, tokens, cols, rows);
        }
        report("int8 tensor cores " + type + " x" + tokens + " vs CPU", ref, mmq, 1e-4);
        report("int8 tensor cores " + type + " x" + tokens + " vs GEMV", gemv, mmq, 1e-5);
    }

    static Stream<Arguments> halfTensorCoreBatches() {
        List<Arguments> out = new ArrayList<>(int8TensorCoreBatches().toList());
        for (GgmlType t : new GgmlType[] {
            GgmlType.Q4_K,
            GgmlType.Q5_K,
            GgmlType.Q6_K,
            GgmlType.Q3_K,
            GgmlType.Q2_K,
            GgmlType.Q4_1,
            GgmlType.Q5_0,
            GgmlType.Q5_1
        }) {
            for (int tokens : new int[] {9, 16, 24, 40, 64, 65}) {
                out.add(Arguments.of(t, tokens));
            }
        }
        return out.stream();
    }

    /**
     * The half tensor-core products (NVIDIA sm_80 on; MFMA/WMMA on AMD) multiply the same half operands as the BLAS over
     * half copies, in another float order: against those as close as float sums allow, against the
     * CPU as close as the BLAS path; rows (200) and tokens not multiples of the 128 x 64 block tile,
     * and 33 blocks a row (K-quants: 5 super-blocks, 10 half super-blocks), not a multiple of the four
     * a group takes (K-quants: of the two a super-block holds). Five super-blocks (33 blocks) a row
     * also put Q6_K's, Q3_K's (Q5_0's) 2-byte-aligned rows at both offsets mod 4.
     */
    @ParameterizedTest(name = "{0} x {1} tokens")
    @MethodSource("halfTensorCoreBatches")
    void halfTensorCoreProductsMatchTheBlasOverHalfCopiesAndTheCpuBackend(GgmlType type, int tokens) {
        assumeTrue(
                GpuBackend.matrixCores(gpu.device().info().arch()),
                "half tensor-core products run on NVIDIA sm_80 on, AMD gfx90a, gfx942 and gfx11");
        Random r = new Random(type.ordinal() * 31L + tokens);
        int rows = 200;
        int cols = type.blockSize() == 256 ? 1280 : 1056;
        GgufTensor w = RandomTensors.tensor("w", type, rows, cols, r);
        float[] x = RandomTensors.gaussian(tokens * cols, r);
        float[] ref = product(cpu, List.of(w), x, tokens, cols, rows);
        float[][] mmhAndBlas = halfTensorCoreAndBlasProducts(List.of(w), x, tokens, cols, rows);
        float[] mmh = mmhAndBlas[0];
        float[] blas = mmhAndBlas[1];
        report("half tensor cores " + type + " x" + tokens + " vs CPU", ref, mmh, 3e-3);
        report("half tensor cores " + type + " x" + tokens + " vs BLAS over half copies", blas, mmh, 1e-5);
    }

    /**
     * A K-quant file's fused qkv (Q4_K_M: Q4_K, Q4_K, Q6_K; Q5_K_M: Q5_K, Q5_K, Q6_K) without half
     * copies: each band through its format's half tensor-core product into its rows of the output;
     * against the BLAS over half copies as close as float sums allow.
     */
    @ParameterizedTest(name = "{0}|{0}|Q6_K x {1} tokens")
    @CsvSource({"Q4_K, 16", "Q4_K, 40", "Q5_K, 24", "Q5_K, 64"})
    void fusedKQuantBandsTakeTheHalfTensorCoresBandByBand(GgmlType qk, int tokens) {
        assumeTrue(
                GpuBackend.matrixCores(gpu.device().info().arch()),
                "half tensor-core products run on NVIDIA sm_80 on, AMD gfx90a, gfx942 and gfx11");
        Random r = new Random(qk.ordinal() * 13L + tokens);
        int cols = 1280;
        List<GgufTensor> parts = List.of(
                RandomTensors.tensor("q", qk, 136, cols, r),
                RandomTensors.tensor("k", qk, 32, cols, r),
                RandomTensors.tensor("v", GgmlType.Q6_K, 33, cols, r));
        float[] x = RandomTensors.gaussian(tokens * cols, r);
        float[][] mmhAndBlas = halfTensorCoreAndBlasProducts(parts, x, tokens, cols, 201);
        String name = "fused " + qk + "|" + qk + "|Q6_K x" + tokens;
        report(name + " vs CPU", product(cpu, parts, x, tokens, cols, 201), mmhAndBlas[0], 3e-3);
        report(name + " vs BLAS over half copies", mmhAndBlas[1], mmhAndBlas[0], 1e-5);
    }

    /** The product without half copies on the half tensor cores, and the BLAS's over half copies. */
    private static float[][] halfTensorCoreAndBlasProducts(
            List<GgufTensor> parts, float[] x, int tokens, int cols, int rows) {
        float[] mmh;
        try (GpuBackend tensorCores = GpuBackend.open(
                pool.device(0),
                GpuOptions.defaults().withHalfWeights(false).withGemmMinRows(9).withMmqMaxRows(128))) {
            mmh = product(tensorCores, parts, x, tokens, cols, rows);
        }
        float[] blas;
        try (GpuBackend halfCopies = GpuBackend.open(
                pool.device(0),
                GpuOptions.defaults().withHalfWeights(true).withGemmMinRows(9).withHalfTensorProducts(false))) {
            // (up to 48 rows the defaults would take ls_mmh_* over the copies too)
            blas = product(halfCopies, parts, x, tokens, cols, rows);
        }
        return new float[][] {mmh, blas};
    }

    /**
     * GEMV paths differ from the CPU in summation order only; the BLAS path rounds operands to
     * half; a type without a device format would be stored as half (2^-11 relative per weight):
     * every type the CPU reads has one now.
     */
    private static double tolerance(GgmlType type, boolean blas) {
        if (blas) {
            return 3e-3;
        }
        return WeightFormat.of(type).isPresent() ? 1e-4 : 1e-3;
    }

    @ParameterizedTest
    @MethodSource("halfCopyTypes")
    void halfWeightCopiesServeTheBlasPath(GgmlType type) {
        Random r = new Random(type.ordinal() + 99L);
        int tokens = 40;
        GgufTensor w = RandomTensors.tensor("w", type, 96, 512, r);
        float[] x = RandomTensors.gaussian(tokens * 512, r);
        // mmq-max-rows 0: the BLAS, not the half tensor cores, which Q4_0 / Q8_0 would take at 40 rows
        try (GpuBackend half = GpuBackend.open(
                pool.device(0), GpuOptions.defaults().withHalfWeights(true).withMmqMaxRows(0))) {
            float[] got = product(half, List.of(w), x, tokens, 512, 96);
            assertThat(half.stats().halfWeightBytes()).isEqualTo(96L * 512 * 2);
            report("half copy of " + type + " x" + tokens, product(cpu, List.of(w), x, tokens, 512, 96), got, 3e-3);
        }
    }

    @Test
    void weightsBeyondTheHalfCopiesShareDequantizePerProduct() {
        Random r = new Random(5);
        int tokens = 40;
        GgufTensor first = RandomTensors.tensor("first", GgmlType.Q4_0, 96, 512, r);
        GgufTensor second = RandomTensors.tensor("second", GgmlType.Q4_0, 96, 512, r);
        float[] x = RandomTensors.gaussian(tokens * 512, r);
        long free = pool.device(0).memoryInfo().free();
        // a share that fits the first copy and not the second
        double share = 1.5 * 96 * 512 * 2 / free;
        // mmq-max-rows 0: both through the BLAS (40 rows of Q4_0 would take the half tensor cores)
        try (GpuBackend half = GpuBackend.open(
                pool.device(0), GpuOptions.defaults().withHalfWeightShare(share).withMmqMaxRows(0))) {
            float[] a = product(half, List.of(first), x, tokens, 512, 96);
            float[] b = product(half, List.of(second), x, tokens, 512, 96);
            assertThat(half.stats().halfWeightBytes()).isEqualTo(96L * 512 * 2);
            report("within the half share x" + tokens, product(cpu, List.of(first), x, tokens, 512, 96), a, 3e-3);
            report("beyond the half share x" + tokens, product(cpu, List.of(second), x, tokens, 512, 96), b, 3e-3);
        }
    }

    /** Every quantized device format and BF16: their half copies come from the ls_dequant_*_f16 kernels. */
    static Stream<GgmlType> halfCopyTypes() {
        return Stream.of(
                GgmlType.Q4_0,
                GgmlType.Q8_0,
                GgmlType.Q4_1,
                GgmlType.Q5_0,
                GgmlType.Q5_1,
                GgmlType.Q2_K,
                GgmlType.Q3_K,
                GgmlType.Q4_K,
                GgmlType.Q5_K,
                GgmlType.Q6_K,
                GgmlType.BF16);
    }

    /** Without half copies the BLAS path dequantizes a band at a time (ls_dequant_*_f16 per product). */
    @ParameterizedTest
    @MethodSource("halfCopyTypes")
    void theBlasPathWithoutHalfCopiesDequantizesPerProduct(GgmlType type) {
        Random r = new Random(type.ordinal() + 199L);
        int tokens = 40;
        GgufTensor w = RandomTensors.tensor("w", type, 96, 512, r);
        float[] x = RandomTensors.gaussian(tokens * 512, r);
        // mmq-max-rows 0: the BLAS (40 rows of Q4_0 / Q8_0 would take the half tensor cores)
        try (GpuBackend noHalf = GpuBackend.open(
                pool.device(0), GpuOptions.defaults().withHalfWeights(false).withMmqMaxRows(0))) {
            float[] got = product(noHalf, List.of(w), x, tokens, 512, 96);
            assertThat(noHalf.stats().halfWeightBytes()).isZero();
            report(
                    "dequantized per product " + type + " x" + tokens,
                    product(cpu, List.of(w), x, tokens, 512, 96),
                    got,
                    3e-3);
        }
    }

    @Test
    void fusedPartsOfDifferentTypesMatchTheCpuBackend() {
        Random r = new Random(7);
        int cols = 256;
        List<GgufTensor> parts = List.of(
                RandomTensors.tensor("q", GgmlType.Q4_K, 64, cols, r),
                RandomTensors.tensor("k", GgmlType.Q4_K, 32, cols, r),
                RandomTensors.tensor("v", GgmlType.Q6_K, 32, cols, r),
                RandomTensors.tensor("x", GgmlType.Q8_0, 40, cols, r));
        for (int tokens : new int[] {1, 5, 40}) {
            float[] x = RandomTensors.gaussian(tokens * cols, r);
            report(
                    "fused Q4_K|Q4_K|Q6_K|Q8_0 x" + tokens,
                    product(cpu, parts, x, tokens, cols, 168),
                    product(gpu, parts, x, tokens, cols, 168),
                    tokens >= gpu.options().gemmMinRows() ? 3e-3 : 1e-4);
        }
    }

    @ParameterizedTest(name = "{0}|{1} experts, {2} tokens x {3}, rows of {4}")
    @MethodSource("expertCases")
    void expertMatmulMatchesTheCpuBackend(GgmlType gateType, GgmlType upType, int tokens, int used, int cols) {
        Random r = new Random(gateType.ordinal() * 7L + upType.ordinal() + tokens * 31L + used + cols);
        int experts = 5;
        int pairs = tokens * used;
        // two stacks (one band each when their types differ), 32 and 64 rows per expert
        List<GgufTensor> stacks =
                List.of(stack("gate", gateType, 32, cols, experts, r), stack("up", upType, 64, cols, experts, r));
        float[] ids = new float[tokens * 2 * used];
        for (int p = 0; p < pairs; p++) {
            // uneven: expert 1 gets the most pairs (more than one group of LS_MMV_MAX_COLS)
            ids[(p / used) * 2 * used + p % used] = p % 7 < 5 ? (p * 3) % experts : 1;
        }
        float[] x = RandomTensors.gaussian((tokens + 1) * cols, r);
        float[] hidden = RandomTensors.gaussian(pairs * cols, r);
        for (boolean perPair : new boolean[] {false, true}) {
            java.util.function.Function<Backend, float[]> run = be -> {
                try (Weight w = be.uploadExperts("experts", stacks);
                        Step step = be.beginStep()) {
                    Activations out = alloc(be, pairs, 96);
                    Activations in = perPair ? load(be, hidden, pairs, cols) : load(be, x, tokens + 1, cols);
                    be.expertMatmul(w, load(be, ids, tokens, 2 * used), tokens, 1, perPair, in, out);
                    return read(be, out, pairs);
                }
            };
            float[] reference = run.apply(cpu);
            String name = "expertMatmul " + gateType + "|" + upType + " " + tokens + "x" + used + " k=" + cols
                    + (perPair ? " per pair" : "");
            double tolerance = Math.max(tolerance(gateType, false), tolerance(upType, false));
            report(name, reference, run.apply(gpu), tolerance);
            // the GEMV groups too, where the default took the tensor cores (Q4_0, Q8_0 and MXFP4 experts)
            try (GpuBackend gemvGroups =
                    GpuBackend.open(pool.device(0), GpuOptions.defaults().withExpertTensorCores(false))) {
                report(name + " GEMV groups", reference, run.apply(gemvGroups), tolerance);
            }
        }
    }

    static Stream<Arguments> expertCases() {
        List<Arguments> out = new ArrayList<>();
        for (GgmlType[] types : new GgmlType[][] {
            {GgmlType.Q4_0, GgmlType.Q4_0},
            {GgmlType.Q8_0, GgmlType.Q8_0},
            {GgmlType.Q4_K, GgmlType.Q6_K},
            {GgmlType.F16, GgmlType.F32},
            {GgmlType.Q5_0, GgmlType.Q4_0},
            {GgmlType.Q4_1, GgmlType.Q5_1},
            {GgmlType.Q2_K, GgmlType.Q3_K},
            {GgmlType.Q5_K, GgmlType.BF16},
            {GgmlType.MXFP4, GgmlType.MXFP4} // gpt-oss's experts (transcoded to Q8_0 blocks at upload)
        }) {
            // rows of 256, 2048 and 4096: the integer kernels split a weight block among 4, 2 and 1 threads
            for (int[] shape : new int[][] {{1, 1, 256}, {1, 8, 256}, {5, 8, 2048}, {9, 2, 4096}}) {
                out.add(Arguments.of(types[0], types[1], shape[0], shape[1], shape[2]));
            }
            if (types[0] == GgmlType.Q4_0 || types[0] == GgmlType.Q8_0) {
                // a prompt's 1,200 pairs: the grouping's slices hold several pairs each, and groups of
                // an expert span slices (the tensor-core groups take 64 columns, the GEMV ones 8)
                out.add(Arguments.of(types[0], types[1], 300, 4, 256));
            }
        }
        return out.stream();
    }

    @Test
    void routeExpertsMatchesTheCpuBackend() {
        Random r = new Random(33);
        // the last two: the device's most experts and most used; then logits on a grid of halves,
        // so that ties among the chosen (the lower id first) are the rule, not the exception
        for (int[] shape :
                new int[][] {{1, 8, 128}, {6, 8, 128}, {40, 2, 8}, {3, 4, 300}, {2, 8, 512}, {2, 32, 256}, {5, 8, 64, 1}
                }) {
            int tokens = shape[0];
            int used = shape[1];
            int experts = shape[2];
            float[] logits = RandomTensors.gaussian((tokens + 2) * experts, r);
            if (shape.length > 3) {
                for (int i = 0; i < logits.length; i++) {
                    logits[i] = Math.round(logits[i] * 2) / 2f;
                }
            }
            // the ids must agree exactly; the weights within float rounding of the sums
            for (Gating gating : Gating.values()) {
                compare("routeExperts " + gating + " " + tokens + " x top " + used + " of " + experts, 1e-6, be -> {
                    Activations routing = alloc(be, tokens, 2 * used);
                    be.routeExperts(load(be, logits, tokens + 2, experts), 2, tokens, 1.5f, gating, routing);
                    return read(be, routing, tokens);
                });
            }
        }
    }

    /** {@code experts} random matrices of {@code rows x cols} as a mixture's stacked 3-D tensor. */
    private static GgufTensor stack(String name, GgmlType type, int rows, int cols, int experts, Random r) {
        GgufTensor flat = RandomTensors.tensor(name, type, rows * experts, cols, r);
        return new GgufTensor(name, type, new long[] {cols, rows, experts}, 0, flat.data());
    }

    @Test
    void rowsOfALengthNotAMultipleOfEightStillMultiply() {
        // stories260K's ffn_down: 172 columns, F32
        Random r = new Random(8);
        GgufTensor w = RandomTensors.tensor("down", GgmlType.F32, 64, 172, r);
        for (int tokens : new int[] {1, 5}) {
            float[] x = RandomTensors.gaussian(tokens * 172, r);
            report(
                    "F32 172 columns x" + tokens,
                    product(cpu, List.of(w), x, tokens, 172, 64),
                    product(gpu, List.of(w), x, tokens, 172, 64),
                    1e-5);
        }
    }

    @ParameterizedTest
    @MethodSource("embeddingTypes")
    void embedReadsTheRowsTheCpuBackendReads(GgmlType type) {
        Random r = new Random(type.ordinal());
        GgufTensor table = RandomTensors.tensor("embd", type, 100, 256, r);
        int[] tokens = {5, 99, 0, 5, 42};
        float[] ref = embed(cpu, table, tokens);
        float[] got = embed(gpu, table, tokens);
        report("embed " + type, ref, got, WeightFormat.of(type).isPresent() ? 1e-6 : 1e-3);
    }

    static Stream<GgmlType> embeddingTypes() {
        return Stream.of(
                GgmlType.Q4_0,
                GgmlType.Q8_0,
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

    /** gpt-oss's clamped SwiGLU and its per-expert biases. */
    @Test
    void gptOssFeedForwardOperationsMatchTheCpuBackend() {
        Random r = new Random(12);
        int n = 7;
        int f = 96;
        float[] gu = RandomTensors.gaussian(n * 2 * f, r);
        for (int i = 0; i < gu.length; i++) {
            gu[i] *= 6; // many beyond the clamp of 7
        }
        compare("swiGluOai", 1e-5, be -> {
            Activations out = alloc(be, n, f);
            be.glu(Glu.SWIGLU_OAI, load(be, gu, n, 2 * f), n, out);
            return read(be, out, n);
        });
        int tokens = 5;
        int used = 4;
        int experts = 6;
        float[] ids = new float[tokens * 2 * used];
        for (int p = 0; p < tokens * used; p++) {
            // pair 3 names no expert (6 of 6): left alone
            ids[(p / used) * 2 * used + p % used] = p == 3 ? experts : (p * 5) % experts;
        }
        float[] y = RandomTensors.gaussian(tokens * used * 2 * f, r);
        float[] gate = RandomTensors.gaussian(experts * f, r);
        float[] up = RandomTensors.gaussian(experts * f, r);
        compare("addExpertBias gate|up", 1e-6, be -> {
            Activations routing = load(be, ids, tokens, 2 * used);
            Activations rows = load(be, y, tokens * used, 2 * f);
            be.addExpertBias(rows, 0, f, vector(be, gate), routing, tokens);
            be.addExpertBias(rows, f, f, vector(be, up), routing, tokens);
            return read(be, rows, tokens * used);
        });
    }

    @Test
    void normsAndElementwiseOperationsMatchTheCpuBackend() {
        Random r = new Random(11);
        int n = 5;
        int d = 96;
        float[] x = RandomTensors.gaussian(n * d, r);
        float[] y = RandomTensors.gaussian(n * d, r);
        float[] w = RandomTensors.gaussian(d, r);
        float[] b = RandomTensors.gaussian(d, r);
        float[] gu = RandomTensors.gaussian(n * 2 * d, r);
        compare("rmsNorm", 1e-5, be -> {
            Activations out = alloc(be, n, d);
            be.rmsNorm(load(be, x, n, d), vector(be, w), 1e-5f, n, out);
            return read(be, out, n);
        });
        compare("add then rmsNorm (fused on the GPU)", 1e-5, be -> {
            Activations a = load(be, x, n, d);
            Activations res = load(be, y, n, d);
            be.add(a, res, n);
            be.rmsNorm(a, vector(be, w), 1e-5f, n, res);
            float[] both = new float[2 * n * d];
            be.read(a, n, both, 0);
            be.read(res, n, both, n * d);
            return both;
        });
        compare("layerNorm", 1e-5, be -> {
            Activations out = alloc(be, n, d);
            be.layerNorm(load(be, x, n, d), vector(be, w), vector(be, b), 1e-12f, n, out);
            return read(be, out, n);
        });
        compare("add", 0, be -> {
            Activations a = load(be, x, n, d);
            be.add(a, load(be, y, n, d), n);
            return read(be, a, n);
        });
        compare("addBias", 0, be -> {
            Activations a = load(be, x, n, d);
            be.addBias(a, vector(be, b), n);
            return read(be, a, n);
        });
        compare("swiGlu", 1e-6, be -> {
            Activations out = alloc(be, n, d);
            be.swiGlu(load(be, gu, n, 2 * d), n, out);
            return read(be, out, n);
        });
        compare("gatherRows", 0, be -> {
            Activations out = alloc(be, 4, d);
            be.gatherRows(load(be, x, n, d), new int[] {4, 0, 4, 2}, out);
            return read(be, out, 4);
        });
        // the CPU reads ggml's table of half-precision GELU values, the GPU computes it in float
        compare("geGlu", 1e-3, be -> {
            Activations out = alloc(be, n, d);
            be.glu(Glu.GELU, load(be, gu, n, 2 * d), n, out);
            return read(be, out, n);
        });
        compare("scale, tanh, scale (soft-capping)", 1e-6, be -> {
            Activations a = load(be, x, n, d);
            be.scale(a, 1 / 0.7f, n);
            be.unary(Unary.TANH, a, n);
            be.scale(a, 0.7f, n);
            return read(be, a, n);
        });
        compare("headRmsNorm of 2 heads of 32 from column 24", 1e-5, be -> {
            Activations a = load(be, x, n, d);
            be.headRmsNorm(a, 24, 2, 32, vector(be, Arrays.copyOf(w, 32)), 1e-6f, n);
            return read(be, a, n);
        });
        compare("combineExperts of 2 slots", 1e-7, be -> {
            Activations out = load(be, x, n, d);
            Activations routing = load(be, new float[] {3, 0, 0.25f, -1.5f, 1, 2, 2f, 0.5f}, 2, 4);
            be.combineExperts(load(be, gu, 4, d), routing, 1, 2, out);
            return read(be, out, n);
        });
    }

    @Test
    void encoderOperationsMatchTheCpuBackend() {
        Random r = new Random(21);
        int d = 96;
        float[] x = RandomTensors.gaussian(9 * d, r);
        // the CPU rounds GELU's input and output to half (ggml's table), the GPU computes in float
        compare("gelu", 2e-3, be -> {
            Activations a = load(be, x, 9, d);
            be.gelu(a, 9);
            return read(be, a, 9);
        });
        int[] starts = {0, 3, 4, 9};
        for (Pooling pooling : Pooling.values()) {
            compare("pool " + pooling, 1e-6, be -> {
                Activations out = alloc(be, 3, d);
                be.pool(load(be, x, 9, d), starts, 3, pooling, out);
                return read(be, out, 3);
            });
        }
        // spans of 5, 1, 34 and 260 rows: the longest takes several chunks of the kernel
        int[] spans = {0, 5, 6, 40, 300};
        // head sizes 32, 64 and 128 take the tiled kernels (across tiles of 32 keys), 48 the general one
        for (AttentionShape shape : List.of(
                new AttentionShape(12, 12, 32, (float) (1 / Math.sqrt(32)), false, 0),
                new AttentionShape(8, 2, 64, 0.125f, false, 0),
                new AttentionShape(4, 4, 128, 0.088f, false, 0),
                new AttentionShape(4, 2, 48, 0.144f, false, 0))) {
            int width = shape.queryDim() + 2 * shape.kvDim();
            float[] qkv = RandomTensors.gaussian(300 * width, r);
            compare("encoder attention " + shape, 1e-5, be -> {
                Activations out = alloc(be, 300, shape.queryDim());
                be.encoderAttention(load(be, qkv, 300, width), spans, 4, shape, out);
                return read(be, out, 300);
            });
        }
    }

    @Test
    void ropeMatchesTheCpuBackend() {
        Random r = new Random(12);
        int heads = 6;
        int headDim = 32;
        int n = 4;
        float[] x = RandomTensors.gaussian(n * heads * headDim, r);
        float[] factors = new float[12];
        Arrays.fill(factors, 1.5f);
        for (Rope rope : List.of(
                new Rope(Rope.Style.NORMAL, 32, 10000f, 1f, null),
                new Rope(Rope.Style.NEOX, 24, 500000f, 0.5f, factors))) {
            Batch batch = Batch.builder(16)
                    .add(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, 5, new int[] {1, 2, 3}, Batch.Logits.NONE)
                    .add(new int[600], 9000, new int[] {4}, Batch.Logits.NONE)
                    .build(); // far: the table grows
            compare("rope " + rope.style() + " dims " + rope.dims(), 1e-6, batch, be -> {
                Activations a = load(be, x, n, heads * headDim);
                be.rope(a, 2 * headDim, 3, headDim, n, rope); // heads 2..4 only
                return read(be, a, n);
            });
        }
    }

    /** Query heads, kv heads, head size, rope style and rotated dimensions of the q/k-norm cases. */
    static Stream<Arguments> headNormShapes() {
        return Stream.of(
                Arguments.of(8, 2, 128, Rope.Style.NEOX, 128), // qwen3's heads
                Arguments.of(4, 1, 256, Rope.Style.NEOX, 256), // gemma3's widest heads
                Arguments.of(6, 2, 64, Rope.Style.NORMAL, 48), // part of each head rotates, the rest is only normalized
                Arguments.of(4, 4, 64, Rope.Style.NEOX, 32));
    }

    /**
     * qwen3's and gemma3's per-head q/k norms then the ropes, which the GPU runs as one launch
     * ({@code ls_rope_norm_f32}): against the CPU backend, and bit for bit against the norms' own
     * kernel and the plain rope (an operation recorded between them keeps them apart).
     */
    @ParameterizedTest(name = "{0}/{1} heads of {2}, {3} rope of {4}")
    @MethodSource("headNormShapes")
    void queryAndKeyNormsInsideTheRopeMatchTheCpuBackendAndTheSeparateKernelsBitForBit(
            int heads, int kvHeads, int headDim, Rope.Style style, int dims) {
        Random r = new Random(heads * 31L + headDim + dims);
        int n = 5;
        int keyCol = heads * headDim;
        int width = keyCol + 2 * kvHeads * headDim;
        float[] x = RandomTensors.gaussian(n * width, r);
        float[] qNorm = RandomTensors.gaussian(headDim, r);
        float[] kNorm = RandomTensors.gaussian(headDim, r);
        Rope rope = new Rope(style, dims, 1000000f, 1f, null);
        Batch batch = Batch.builder(16)
                .add(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, 40, new int[] {1, 2, 3}, Batch.Logits.NONE)
                .add(new int[600], 9000, new int[] {4, 5}, Batch.Logits.NONE)
                .build();
        java.util.function.BiFunction<Backend, Boolean, float[]> run = (be, apart) -> {
            try (Step step = be.beginStep(batch)) {
                Activations a = load(be, x, n, width);
                be.headRmsNorm(a, 0, heads, headDim, vector(be, qNorm), 1e-6f, n);
                be.headRmsNorm(a, keyCol, kvHeads, headDim, vector(be, kNorm), 1e-6f, n);
                if (apart) {
                    keepApart(be, n);
                }
                be.rope(a, 0, heads, headDim, n, rope);
                be.rope(a, keyCol, kvHeads, headDim, n, rope);
                return read(be, a, n);
            }
        };
        String what =
                "q/k norms and rope, " + heads + "/" + kvHeads + " heads of " + headDim + ", " + style + " " + dims;
        float[] fused = run.apply(gpu, false);
        report(what, run.apply(cpu, false), fused, 1e-5);
        assertBitForBit(what + ", fused against apart", run.apply(gpu, true), fused);
    }

    /**
     * The same norms in the rope that also writes the KV cache (the rope before an attention), over
     * a prompt step and a decode step that reads the cache the first wrote: the attention's output
     * and the rows against the CPU backend, and bit for bit against the norms' own kernel with the
     * rope writing the cache and against every kernel apart (the attention writing the cache).
     */
    @ParameterizedTest(name = "{0}/{1} heads of {2}, {3} rope of {4}")
    @MethodSource("headNormShapes")
    void queryAndKeyNormsInsideTheCacheWritingRopeMatchTheCpuBackendAndTheSeparateKernelsBitForBit(
            int heads, int kvHeads, int headDim, Rope.Style style, int dims) {
        Random r = new Random(heads * 37L + headDim + dims);
        AttentionShape shape = new AttentionShape(heads, kvHeads, headDim, (float) (1 / Math.sqrt(headDim)), true, 0);
        int width = shape.queryDim() + 2 * shape.kvDim();
        float[] qNorm = RandomTensors.gaussian(headDim, r);
        float[] kNorm = RandomTensors.gaussian(headDim, r);
        Rope rope = new Rope(style, dims, 1000000f, 1f, null);
        int blockSize = 16;
        int[] tableA = {5, 3, 9};
        int[] tableB = {0, 7};
        Batch first = Batch.builder(blockSize)
                .add(tableA, 0, tokens(37), Batch.Logits.NONE)
                .add(tableB, 0, tokens(3), Batch.Logits.NONE)
                .build();
        Batch second = Batch.builder(blockSize)
                .add(tableA, 37, tokens(1), Batch.Logits.NONE)
                .add(tableB, 3, tokens(2), Batch.Logits.NONE)
                .build();
        float[] q1 = RandomTensors.gaussian(first.size() * width, r);
        float[] q2 = RandomTensors.gaussian(second.size() * width, r);
        // 0: one launch; 1: the norms apart, the rope writing the cache; 2: every kernel apart
        java.util.function.BiFunction<Backend, Integer, float[]> run = (be, apart) -> {
            try (KvStorage kv = be.allocateKv(2, 16, blockSize, shape.kvDim())) {
                List<float[]> parts = new ArrayList<>();
                for (Batch b : List.of(first, second)) {
                    int n = b.size();
                    try (Step step = be.beginStep(b)) {
                        Activations qkv = load(be, b == first ? q1 : q2, n, width);
                        Activations out = alloc(be, n, shape.queryDim());
                        be.headRmsNorm(qkv, 0, heads, headDim, vector(be, qNorm), 1e-6f, n);
                        be.headRmsNorm(qkv, shape.keyCol(), kvHeads, headDim, vector(be, kNorm), 1e-6f, n);
                        if (apart >= 1) {
                            keepApart(be, n);
                        }
                        be.rope(qkv, 0, heads, headDim, n, rope);
                        be.rope(qkv, shape.keyCol(), kvHeads, headDim, n, rope);
                        if (apart >= 2) {
                            keepApart(be, n);
                        }
                        be.attention(qkv, kv, 1, n, shape, out);
                        parts.add(read(be, out, n));
                        parts.add(read(be, qkv, n));
                    }
                }
                float[] all = new float[parts.stream().mapToInt(p -> p.length).sum()];
                int at = 0;
                for (float[] p : parts) {
                    System.arraycopy(p, 0, all, at, p.length);
                    at += p.length;
                }
                return all;
            }
        };
        String what = "q/k norms, rope and cache write, " + heads + "/" + kvHeads + " heads of " + headDim + ", "
                + style + " " + dims;
        float[] fused = run.apply(gpu, 0);
        report(what, run.apply(cpu, 0), fused, 2e-3);
        assertBitForBit(what + ", fused against the norms apart", run.apply(gpu, 1), fused);
        assertBitForBit(what + ", fused against every kernel apart", run.apply(gpu, 2), fused);
    }

    /** An operation on rows of its own, recorded between two that would fuse: they then launch apart. */
    private static void keepApart(Backend be, int n) {
        be.scale(alloc(be, n, 8), 1f, n);
    }

    private static void assertBitForBit(String what, float[] want, float[] got) {
        assertThat(got).as(what).hasSameSizeAs(want);
        for (int i = 0; i < want.length; i++) {
            if (Float.floatToRawIntBits(got[i]) != Float.floatToRawIntBits(want[i])) {
                throw new AssertionError(what + ": element " + i + " is " + got[i] + ", not " + want[i]);
            }
        }
        System.out.printf("[gpu-report] %-60s bit for bit%n", what);
    }

    static Stream<Arguments> attentionShapes() {
        return Stream.of(
                Arguments.of(8, 2, 64, true, 0, 0f, false),
                Arguments.of(32, 8, 128, true, 0, 0f, false),
                Arguments.of(32, 4, 128, true, 0, 0f, false), // 8 query heads per kv head: split kernel in two parts
                Arguments.of(32, 4, 64, true, 24, 0f, true), // the same with a window and sinks
                Arguments.of(4, 4, 8, true, 0, 0f, false), // stories260K-like tiny heads
                Arguments.of(8, 2, 64, true, 40, 0f, false), // sliding window
                Arguments.of(6, 2, 32, false, 0, 0f, false), // bidirectional (BERT)
                Arguments.of(16, 1, 64, true, 0, 0f, false), // 16 query heads per kv head: the general kernel
                Arguments.of(4, 2, 40, true, 0, 0f, false), // a head size without its own kernel: the general kernel
                Arguments.of(8, 2, 64, true, 40, 1f, false), // gemma2's soft-capped scores (exact and tiled kernels)
                Arguments.of(16, 1, 64, true, 0, 1f, false), // soft-capped in the general kernel
                Arguments.of(8, 2, 64, true, 40, 0f, true), // gpt-oss's sinks, windowed (exact and tiled kernels)
                Arguments.of(64, 8, 64, true, 0, 0f, true), // gpt-oss-20b's heads with sinks, global layers
                Arguments.of(16, 1, 64, true, 0, 0f, true), // sinks in the general kernel
                Arguments.of(4, 2, 40, true, 0, 0f, true)); // sinks in the general kernel, another head size
    }

    @ParameterizedTest(name = "{0}/{1} heads of {2}, causal {3}, window {4}, soft-cap {5}, sinks {6}")
    @MethodSource("attentionShapes")
    void pagedAttentionMatchesTheCpuBackend(
            int heads, int kvHeads, int headDim, boolean causal, int window, float softcap, boolean sinks) {
        pagedAttention(KvCacheType.F16, heads, kvHeads, headDim, causal, window, softcap, sinks);
    }

    /** The shapes a Q8_0 cache has kernels for: every kernel kind, head size and option. */
    static Stream<Arguments> q8AttentionShapes() {
        return Stream.of(
                Arguments.of(8, 2, 64, true, 0, 0f, false),
                Arguments.of(32, 8, 128, true, 0, 0f, false),
                Arguments.of(32, 4, 128, true, 0, 0f, false), // qwen3-30b-a3b's 8 query heads per kv head
                Arguments.of(8, 2, 96, true, 0, 0f, false),
                Arguments.of(8, 4, 256, true, 0, 0f, false), // gemma's heads: no tiles, the per-row kernels
                Arguments.of(8, 2, 64, true, 40, 0f, false), // sliding window
                Arguments.of(6, 2, 32, false, 0, 0f, false), // bidirectional
                Arguments.of(8, 2, 64, true, 40, 1f, false), // soft-capped scores
                Arguments.of(64, 8, 64, true, 0, 0f, true)); // gpt-oss's sinks
    }

    /**
     * A Q8_0 cache against the CPU backend's Q8_0 cache: the same quantized bytes and scales, the
     * same dequantized values in the per-row kernels; the tiled prompt kernels round them to half in
     * shared memory.
     */
    @ParameterizedTest(name = "q8_0: {0}/{1} heads of {2}, causal {3}, window {4}, soft-cap {5}, sinks {6}")
    @MethodSource("q8AttentionShapes")
    void pagedAttentionOverAQ8CacheMatchesTheCpuBackend(
            int heads, int kvHeads, int headDim, boolean causal, int window, float softcap, boolean sinks) {
        pagedAttention(KvCacheType.Q8_0, heads, kvHeads, headDim, causal, window, softcap, sinks);
    }

    private static void pagedAttention(
            KvCacheType type,
            int heads,
            int kvHeads,
            int headDim,
            boolean causal,
            int window,
            float softcap,
            boolean sinks) {
        Random r = new Random(heads * 1000L + headDim);
        // sinks of either sign, some above every score: they take a visible share of each softmax
        float[] sinkValues = RandomTensors.gaussian(heads, r);
        for (int i = 0; i < heads; i++) {
            sinkValues[i] *= 2;
        }
        AttentionShape shape = new AttentionShape(
                        heads, kvHeads, headDim, (float) (1 / Math.sqrt(headDim)), causal, window, softcap)
                .withSinks(sinks ? sinkValues : null);
        int width = shape.queryDim() + 2 * shape.kvDim();
        int blockSize = 16;
        // blocks handed out in a shuffled order, so tables are not contiguous
        List<Integer> free = new ArrayList<>(IntStream.range(0, 64).boxed().toList());
        Collections.shuffle(free, r);
        int[] tableA = free.subList(0, 2).stream().mapToInt(Integer::intValue).toArray();
        int[] tableB = free.subList(2, 22).stream().mapToInt(Integer::intValue).toArray();
        int[] tableC = free.subList(22, 23).stream().mapToInt(Integer::intValue).toArray();
        // step 1: a 300-token prompt and a 5-token prompt; step 2: one decode row each, a 2-row
        // chunk, and a new sequence: long contexts take several chunks and (step 2) several splits
        Batch first = Batch.builder(blockSize)
                .add(tableB, 0, tokens(300), Batch.Logits.NONE)
                .add(tableA, 0, tokens(5), Batch.Logits.NONE)
                .build();
        Batch second = Batch.builder(blockSize)
                .add(tableB, 300, tokens(1), Batch.Logits.NONE)
                .add(tableA, 5, tokens(2), Batch.Logits.NONE)
                .add(tableC, 0, tokens(1), Batch.Logits.NONE)
                .build();
        float[] q1 = RandomTensors.gaussian(first.size() * width, r);
        float[] q2 = RandomTensors.gaussian(second.size() * width, r);
        compareSteps("attention " + type + " " + shape, 2e-3, be -> {
            try (KvStorage kv = be.allocateKv(new int[2], new int[] {64}, blockSize, shape.kvDim(), type)) {
                float[] a;
                try (Step step = be.beginStep(first)) {
                    Activations out1 = alloc(be, first.size(), shape.queryDim());
                    be.attention(load(be, q1, first.size(), width), kv, 1, first.size(), shape, out1);
                    a = read(be, out1, first.size());
                }
                float[] b;
                try (Step step = be.beginStep(second)) {
                    Activations out2 = alloc(be, second.size(), shape.queryDim());
                    be.attention(load(be, q2, second.size(), width), kv, 1, second.size(), shape, out2);
                    b = read(be, out2, second.size());
                }
                float[] both = Arrays.copyOf(a, a.length + b.length);
                System.arraycopy(b, 0, both, a.length, b.length);
                return both;
            }
        });
    }

    /**
     * 64 decode rows of 64 sequences 400 positions long (their first 400 positions share blocks,
     * each row writes its own): on 132 multiprocessors one block per row and kv head, each taking
     * its row's 401 positions in many rounds of its lane groups (over an F16 cache on tensor cores,
     * two rounds in flight: an odd or even count of rounds a lane group); heads of 128 and 64.
     */
    @ParameterizedTest
    @CsvSource({"F16, 128", "Q8_0, 128", "F16, 64"})
    void manyDecodeRowsOverALongContextMatchTheCpuBackend(KvCacheType type, int headDim) {
        int shared = 400 / 16;
        int rows = 64;
        Batch first = Batch.builder(16)
                .add(IntStream.range(0, shared).toArray(), 0, tokens(400), Batch.Logits.NONE)
                .build();
        Batch.Builder decode = Batch.builder(16);
        for (int s = 0; s < rows; s++) {
            int[] table = IntStream.rangeClosed(0, shared).toArray();
            table[shared] = shared + s;
            decode.add(table, 400, tokens(1), Batch.Logits.NONE);
        }
        decodeAfterPrefill(
                "64 rows over 401 positions", type, headDim, first, decode.build(), shared + rows, new Random(78));
    }

    /**
     * Eight decode rows of one sequence 1,500 positions long: few enough rows to split their
     * positions (eight splits on 132 multiprocessors), each split's range long enough for several
     * rounds of its lane groups, so their running softmax rescales what they summed before.
     */
    @ParameterizedTest
    @EnumSource(KvCacheType.class)
    void decodeRowsOverALongContextMatchTheCpuBackend(KvCacheType type) {
        int[] table = IntStream.range(0, 100).toArray();
        Batch first =
                Batch.builder(16).add(table, 0, tokens(1500), Batch.Logits.NONE).build();
        Batch second =
                Batch.builder(16).add(table, 1500, tokens(8), Batch.Logits.NONE).build();
        decodeAfterPrefill("8 rows over 1,508 positions", type, 128, first, second, 100, new Random(77));
    }

    /**
     * A prompt step (its attention writes the cache), then the decode rows of {@code second}
     * attending over it, 32/8 heads of {@code headDim}, blocks of 16: the decode rows' outputs
     * against the CPU.
     */
    private static void decodeAfterPrefill(
            String what, KvCacheType type, int headDim, Batch first, Batch second, int blocks, Random r) {
        AttentionShape shape = new AttentionShape(32, 8, headDim, (float) (1 / Math.sqrt(headDim)), true, 0, 0f);
        int width = shape.queryDim() + 2 * shape.kvDim();
        float[] q1 = RandomTensors.gaussian(first.size() * width, r);
        float[] q2 = RandomTensors.gaussian(second.size() * width, r);
        compareSteps("attention of " + what + " " + type + " " + shape, 2e-3, be -> {
            try (KvStorage kv = be.allocateKv(new int[1], new int[] {blocks}, 16, shape.kvDim(), type)) {
                try (Step step = be.beginStep(first)) {
                    be.attention(
                            load(be, q1, first.size(), width),
                            kv,
                            0,
                            first.size(),
                            shape,
                            alloc(be, first.size(), shape.queryDim()));
                }
                try (Step step = be.beginStep(second)) {
                    Activations out = alloc(be, second.size(), shape.queryDim());
                    be.attention(load(be, q2, second.size(), width), kv, 0, second.size(), shape, out);
                    return read(be, out, second.size());
                }
            }
        });
    }

    @Test
    void topKOnTheDeviceMatchesASortOfTheRow() {
        Random r = new Random(13);
        int n = 3;
        int vocab = 5000;
        float[] logits = RandomTensors.gaussian(n * vocab, r);
        logits[vocab + 17] = logits[vocab + 18] = 50f; // a tie: the lower id first
        Activations a = load(gpu, logits, n, vocab);
        int k = 5;
        int[] ids = new int[n * k];
        float[] values = new float[n * k];
        try (Step step = gpu.beginStep()) {
            gpu.topK(a, n, k, ids, values, 0);
        }
        int[] cpuIds = new int[1 + n * k];
        float[] cpuValues = new float[1 + n * k];
        try (Step step = cpu.beginStep()) {
            cpu.topK(load(cpu, logits, n, vocab), n, k, cpuIds, cpuValues, 1);
        }
        assertThat(java.util.Arrays.copyOfRange(cpuIds, 1, 1 + n * k))
                .as("the CPU backend's choice")
                .containsExactly(ids);
        for (int t = 0; t < n; t++) {
            int row = t;
            Integer[] order = IntStream.range(0, vocab)
                    .boxed()
                    .sorted((i, j) -> Float.compare(logits[row * vocab + j], logits[row * vocab + i]))
                    .toArray(Integer[]::new);
            for (int j = 0; j < k; j++) {
                assertThat(ids[t * k + j]).as("row %d rank %d", t, j).isEqualTo(order[j]);
                assertThat(values[t * k + j]).isEqualTo(logits[t * vocab + order[j]]);
            }
        }
    }

    // ---------------------------------------------------------------- helpers

    /** The same calls on both backends, each in a step of its own, the results compared. */
    private static void compare(String what, double tolerance, java.util.function.Function<Backend, float[]> run) {
        compare(what, tolerance, null, run);
    }

    private static void compare(
            String what, double tolerance, Batch batch, java.util.function.Function<Backend, float[]> run) {
        compareSteps(what, tolerance, be -> {
            try (Step step = be.beginStep(batch)) {
                return run.apply(be);
            }
        });
    }

    /** The same calls on both backends, which open their own steps. */
    private static void compareSteps(String what, double tolerance, java.util.function.Function<Backend, float[]> run) {
        report(what, run.apply(cpu), run.apply(gpu), tolerance);
    }

    private static void report(String what, float[] ref, float[] got, double tolerance) {
        assertThat(got).as(what).hasSameSizeAs(ref);
        double err = 0;
        double norm = 0;
        for (int i = 0; i < ref.length; i++) {
            assertThat(Float.isFinite(got[i]))
                    .as("%s: element %d is %s", what, i, got[i])
                    .isTrue();
            err += (got[i] - ref[i]) * (double) (got[i] - ref[i]);
            norm += (double) ref[i] * ref[i];
        }
        double rel = Math.sqrt(err / Math.max(norm, 1e-30));
        System.out.printf("[gpu-report] %-60s relative L2 error %.2e (tolerance %.0e)%n", what, rel, tolerance);
        assertThat(rel).as(what).isLessThanOrEqualTo(tolerance);
    }

    private static float[] product(Backend be, List<GgufTensor> parts, float[] x, int tokens, int cols, int rows) {
        try (Weight w = be.uploadMatrix("w", parts);
                Step step = be.beginStep()) {
            Activations out = alloc(be, tokens, rows);
            be.matmul(w, load(be, x, tokens, cols), tokens, out);
            return read(be, out, tokens);
        }
    }

    private static float[] embed(Backend be, GgufTensor table, int[] tokens) {
        try (Weight w = be.uploadTable(table);
                Step step = be.beginStep()) {
            Activations out = alloc(be, tokens.length, (int) table.rowLength());
            be.embed(w, tokens, tokens.length, out);
            return read(be, out, tokens.length);
        }
    }

    /** Activations of every test, closed after it (device memory is not garbage collected). */
    private static final List<Activations> OPENED = new ArrayList<>();

    static Activations alloc(Backend be, int rows, int cols) {
        Activations a = be.allocate(rows, cols);
        OPENED.add(a);
        return a;
    }

    @AfterEach
    void closeActivations() {
        OPENED.forEach(Activations::close);
        OPENED.clear();
    }

    /** Activations holding {@code values}. */
    static Activations load(Backend be, float[] values, int rows, int cols) {
        Activations a = alloc(be, rows, cols);
        be.write(values, 0, rows, a);
        return a;
    }

    static float[] read(Backend be, Activations a, int rows) {
        float[] out = new float[rows * a.cols()];
        be.read(a, rows, out, 0);
        return out;
    }

    private static Weight vector(Backend be, float[] values) {
        MemorySegment m = Arena.ofAuto().allocate((long) values.length * Float.BYTES, 32);
        MemorySegment.copy(values, 0, m, ValueLayout.JAVA_FLOAT, 0, values.length);
        return be.uploadVector(new GgufTensor("v", GgmlType.F32, new long[] {values.length}, 0, m));
    }

    private static int[] tokens(int n) {
        return new int[n];
    }
}
