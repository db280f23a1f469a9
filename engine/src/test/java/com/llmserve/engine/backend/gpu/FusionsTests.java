package com.llmserve.engine.backend.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Gating;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.backend.cpu.CpuBackend;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The fusion rules alone, on recorded operations over handles that own no device memory: each
 * rule looks only at the last operation and the next.
 */
class FusionsTests {

    /** Owns the handles (their checks are not at stake here); nothing runs on it. */
    private static final CpuBackend OWNER = new CpuBackend(1);

    private static final int D = 64;
    private final GpuActivations x = activations(D);
    private final GpuActivations xb = activations(D);
    private final GpuActivations qkv = activations(3 * D);
    private final GpuActivations out = activations(D);
    private final GpuWeight norm = GpuWeight.vector(OWNER, "norm", D, null);
    private final AttentionShape shape = new AttentionShape(4, 4, 16, 0.25f, true, 0);
    private final RopeTable table = new RopeTable(new Rope(Rope.Style.NORMAL, 16, 10000f, 1f, null));
    private final GpuKvStorage kv = storage(KvCacheType.F16);
    private final GpuWeight qNorm = GpuWeight.vector(OWNER, "q_norm", 16, null);
    private final GpuWeight kNorm = GpuWeight.vector(OWNER, "k_norm", 16, null);

    @AfterAll
    static void close() {
        OWNER.close();
    }

    @Test
    void aResidualAddFollowedByTheNormOfItsSumRunsAsOneKernel() {
        List<DeviceOp> ops = record(new Add(x, xb, 8), new RmsNorm(x, norm, 1e-5f, 8, xb, false));
        assertThat(ops).containsExactly(new AddRmsNorm(x, xb, norm, 1e-5f, 8, xb, false));
    }

    @Test
    void aNormOfAnotherActivationOrRowCountStaysApart() {
        assertThat(record(new Add(x, xb, 8), new RmsNorm(out, norm, 1e-5f, 8, xb, false)))
                .hasSize(2);
        assertThat(record(new Add(x, xb, 8), new RmsNorm(x, norm, 1e-5f, 4, xb, false)))
                .hasSize(2);
    }

    @Test
    void theProducerOfAnInt8ProductsInputWritesItsQ8FormForIt() {
        Matmul product = new Matmul(matrix(WeightFormat.Q4_0), xb, 8, qkv, Matmul.Path.GEMV, false);
        List<DeviceOp> ops = record(new RmsNorm(x, norm, 1e-5f, 8, xb, false), product);
        assertThat(ops).containsExactly(new RmsNorm(x, norm, 1e-5f, 8, xb, true), product.afterQuantizingProducer());

        List<DeviceOp> fused = record(new Add(x, out, 8), new RmsNorm(x, norm, 1e-5f, 8, xb, false), product);
        assertThat(fused)
                .containsExactly(new AddRmsNorm(x, out, norm, 1e-5f, 8, xb, true), product.afterQuantizingProducer());

        SwiGlu glu = new SwiGlu(qkv, 8, xb, false);
        assertThat(record(glu, product)).containsExactly(glu.quantizing(), product.afterQuantizingProducer());
    }

    @Test
    void anInt8TensorCoreProductsProducerWritesItsQ8FormToo() {
        GpuActivations rows = new GpuActivations(OWNER, 64, D, null);
        Matmul product = new Matmul(matrix(WeightFormat.Q8_0), rows, 64, qkv, Matmul.Path.MMQ, false);
        RmsNorm producer = new RmsNorm(x, norm, 1e-5f, 64, rows, false);
        assertThat(record(producer, product))
                .containsExactly(new RmsNorm(x, norm, 1e-5f, 64, rows, true), product.afterQuantizingProducer());
    }

    @Test
    void aHalfTensorCoreProductRoundsItsOwnHalfActivations() {
        GpuActivations rows = new GpuActivations(OWNER, 64, D, null);
        Matmul product = new Matmul(matrix(WeightFormat.Q4_0), rows, 64, qkv, Matmul.Path.MMH, false);
        RmsNorm producer = new RmsNorm(x, norm, 1e-5f, 64, rows, false);
        assertThat(record(producer, product)).as("no int8 form to write").containsExactly(producer, product);
    }

    @Test
    void theSwiGluBeforeAnExpertProductWritesItsQ8FormWhereEverySegmentTakesInt8() {
        GpuActivations routing = new GpuActivations(OWNER, 4, 4, null);
        SwiGlu glu = new SwiGlu(qkv, 8, xb, false);
        ExpertMatmul down = expertProduct(WeightFormat.Q4_0, routing);
        assertThat(record(glu, down)).containsExactly(glu.quantizing(), down.afterQuantizingProducer());

        ExpertMatmul floats = expertProduct(WeightFormat.Q5_K, routing);
        assertThat(record(glu, floats)).as("K-quant experts read floats").containsExactly(glu, floats);
        SwiGlu fewerRows = new SwiGlu(qkv, 4, xb, false);
        assertThat(record(fewerRows, down)).as("rows the product rounds itself").containsExactly(fewerRows, down);
    }

    @Test
    void aMixturesCombineThenTheResidualAddAndNormOfItsOutputRunAsOneKernel() {
        GpuActivations routing = new GpuActivations(OWNER, 8, 4, null);
        GpuActivations experts = new GpuActivations(OWNER, 16, D, null);
        CombineExperts combine = new CombineExperts(experts, routing, 0, 8, out);
        RmsNorm norm = new RmsNorm(x, this.norm, 1e-5f, 8, xb, false);
        AddRmsNorm addNorm = new AddRmsNorm(x, out, this.norm, 1e-5f, 8, xb, false);
        assertThat(record(combine, new Add(x, out, 8), norm)).containsExactly(new CombineAddRmsNorm(combine, addNorm));

        Matmul product = new Matmul(matrix(WeightFormat.Q4_0), xb, 8, qkv, Matmul.Path.GEMV, false);
        assertThat(record(combine, new Add(x, out, 8), norm, product))
                .as("and it writes the Q8_0 form for an int8 product after it")
                .containsExactly(
                        new CombineAddRmsNorm(combine, addNorm.quantizing()), product.afterQuantizingProducer());

        CombineExperts laterPass = new CombineExperts(experts, routing, 4, 4, out);
        assertThat(record(laterPass, new Add(x, out, 8), norm))
                .as("a pass over other rows")
                .containsExactly(laterPass, addNorm);
        assertThat(record(combine, new Add(x, xb, 8), new RmsNorm(x, this.norm, 1e-5f, 8, out, false)))
                .as("an add of another activation")
                .containsExactly(combine, new AddRmsNorm(x, xb, this.norm, 1e-5f, 8, out, false));
    }

    @Test
    void aMixturesInputNormWritesTheQ8FormOfItsFirstExpertProductPastTheRouterAndTheRouting() {
        GpuActivations logits = activations(8);
        GpuActivations routing = new GpuActivations(OWNER, 8, 4, null);
        AddRmsNorm norm = new AddRmsNorm(x, out, this.norm, 1e-5f, 8, xb, false);
        Matmul router = new Matmul(matrix(WeightFormat.F32), xb, 8, logits, Matmul.Path.GEMV, false);
        RouteExperts route = new RouteExperts(logits, 0, 8, 1f, Gating.SOFTMAX, routing);
        ExpertMatmul first =
                new ExpertMatmul(experts(WeightFormat.Q4_0), routing, 8, 0, false, xb, 8, qkv, false, false);
        assertThat(record(norm, router, route, first))
                .containsExactly(norm.quantizing(), router, route, first.afterQuantizingProducer());

        Matmul blasRouter = new Matmul(matrix(WeightFormat.F32), xb, 8, logits, Matmul.Path.BLAS, false);
        assertThat(record(norm, blasRouter, route, first))
                .as("a router product through the BLAS")
                .containsExactly(norm, blasRouter, route, first);
        Matmul int8Router = new Matmul(matrix(WeightFormat.Q8_0), xb, 8, logits, Matmul.Path.GEMV, false);
        assertThat(record(norm, int8Router, route, first))
                .as("an int8 router: the norm already writes the Q8_0 form for it")
                .containsExactly(
                        norm.quantizing(),
                        int8Router.afterQuantizingProducer(),
                        route,
                        first.afterQuantizingProducer());
        ExpertMatmul fewerRows =
                new ExpertMatmul(experts(WeightFormat.Q4_0), routing, 4, 0, false, xb, 4, qkv, false, false);
        assertThat(record(norm, router, route, fewerRows))
                .as("a first pass over fewer rows than the norm's")
                .containsExactly(norm, router, route, fewerRows);
        ExpertMatmul floats =
                new ExpertMatmul(experts(WeightFormat.Q5_K), routing, 8, 0, false, xb, 8, qkv, false, false);
        assertThat(record(norm, router, route, floats))
                .as("K-quant experts read floats")
                .containsExactly(norm, router, route, floats);
    }

    /** Two experts of 2 x D rows over D values each. */
    private static GpuWeight experts(WeightFormat format) {
        GpuWeight.Band band = new GpuWeight.Band(format, format.activation(), 0, 4 * D, null, 0, null);
        return GpuWeight.experts(OWNER, "experts", format.type(), D, 2, new int[] {2 * D}, List.of(band));
    }

    /** Two experts of 2 x D rows (pairs of 2 tokens x 2 used) reading all 8 rows of xb per pair. */
    private ExpertMatmul expertProduct(WeightFormat format, GpuActivations routing) {
        return new ExpertMatmul(experts(format), routing, 2, 0, true, xb, 8, qkv, false, false);
    }

    @Test
    void theRowCountTheWeightsFormatAndTheDeviceChooseTheProductsKernels() {
        GpuOptions defaults = GpuOptions.defaults();
        GpuActivations rows = new GpuActivations(OWNER, 256, D, null);
        GpuWeight q4 = matrix(WeightFormat.Q4_0);
        // below HALF_COPY_MIN_ROWS (12) the GEMV; to mmq-max-rows (64) the half tensor cores (NVIDIA
        // sm_80 on) where the weights would otherwise be dequantized for the BLAS or read by GEMV passes
        // of 8 rows (below gemm-min-rows (32) for a decode step's rows only); beyond, the BLAS
        assertThat(Matmul.of(q4, rows, 11, qkv, defaults, true, true, true).path())
                .isEqualTo(Matmul.Path.GEMV);
        assertThat(Matmul.of(q4, rows, 12, qkv, defaults, true, true, true).path())
                .as("a decode step's 12 rows read the weight once")
                .isEqualTo(Matmul.Path.MMH);
        assertThat(Matmul.of(q4, rows, 31, qkv, defaults, true, true, false).path())
                .as("a prompt's rows keep the GEMV's exact block sums")
                .isEqualTo(Matmul.Path.GEMV);
        assertThat(Matmul.of(q4, rows, 31, qkv, defaults, true, false, true).path())
                .as("no half tensor cores: the GEMV below gemm-min-rows")
                .isEqualTo(Matmul.Path.GEMV);
        assertThat(Matmul.of(q4, rows, 40, qkv, defaults, true, true, false).path())
                .as("a prompt's rows: the same kernels from gemm-min-rows")
                .isEqualTo(Matmul.Path.MMH);
        assertThat(Matmul.of(q4, rows, 32, qkv, defaults, true, true, true).path())
                .isEqualTo(Matmul.Path.MMH);
        assertThat(Matmul.of(matrix(WeightFormat.Q8_0), rows, 64, qkv, defaults, true, true, true)
                        .path())
                .isEqualTo(Matmul.Path.MMH);
        assertThat(Matmul.of(q4, rows, 65, qkv, defaults, true, true, true).path())
                .isEqualTo(Matmul.Path.BLAS);
        assertThat(Matmul.of(q4, rows, 9, qkv, defaults.withGemmMinRows(9), true, true, true)
                        .path())
                .isEqualTo(Matmul.Path.MMH);
        // the int8 tensor cores where the half ones are turned off or absent (AMD's matrix instructions)
        assertThat(Matmul.of(q4, rows, 32, qkv, defaults.withHalfTensorProducts(false), true, true, true)
                        .path())
                .isEqualTo(Matmul.Path.MMQ);
        assertThat(Matmul.of(q4, rows, 64, qkv, defaults, true, false, true).path())
                .isEqualTo(Matmul.Path.MMQ);
        assertThat(Matmul.of(q4, rows, 128, qkv, defaults.withMmqMaxRows(128), true, false, true)
                        .path())
                .isEqualTo(Matmul.Path.MMQ);
        // (weights with half copies: the half tensor cores up to HALF_PRODUCTS_OVER_COPIES_MAX_ROWS rows
        // and large weights to 64, the BLAS over the copies past them: below and SimulatedGpuBackendTests)
        // no tensor cores (older NVIDIA, other AMD), or turned off: the GEMV, then BLAS from gemmMinRows
        assertThat(Matmul.of(q4, rows, 16, qkv, defaults, false, false, true).path())
                .isEqualTo(Matmul.Path.GEMV);
        assertThat(Matmul.of(q4, rows, 32, qkv, defaults, false, false, true).path())
                .isEqualTo(Matmul.Path.BLAS);
        assertThat(Matmul.of(q4, rows, 64, qkv, defaults.withMmqMaxRows(0), true, true, true)
                        .path())
                .isEqualTo(Matmul.Path.BLAS);
        // the formats in GGML's layout (Q5_0, the K-quants): the half tensor cores where they have no
        // half copy (SimulatedGpuBackendTests: with one, the BLAS); without them (no int8 kernel of
        // theirs) the BLAS, or the GEMV below gemm-min-rows
        for (WeightFormat f : new WeightFormat[] {WeightFormat.Q5_0, WeightFormat.Q4_K, WeightFormat.Q5_K}) {
            GpuWeight w = matrix(f);
            assertThat(Matmul.of(w, rows, 16, qkv, defaults, true, true, true).path())
                    .as(f + ", a decode step's 16 rows")
                    .isEqualTo(Matmul.Path.MMH);
            assertThat(Matmul.of(w, rows, 48, qkv, defaults, true, true, false).path())
                    .as(f + ", a prompt's 48 rows")
                    .isEqualTo(Matmul.Path.MMH);
            assertThat(Matmul.of(w, rows, 16, qkv, defaults, true, false, true).path())
                    .as(f + " without half tensor cores, 16 rows")
                    .isEqualTo(Matmul.Path.GEMV);
            assertThat(Matmul.of(w, rows, 48, qkv, defaults, true, false, true).path())
                    .as(f + " without half tensor cores, 48 rows")
                    .isEqualTo(Matmul.Path.BLAS);
        }
        // BF16 has no tensor-core kernel, and batch invariance never takes them
        assertThat(Matmul.of(matrix(WeightFormat.BF16), rows, 48, qkv, defaults, true, true, true)
                        .path())
                .isEqualTo(Matmul.Path.BLAS);
        assertThat(Matmul.of(q4, rows, 64, qkv, defaults.withBatchInvariant(true), true, true, true)
                        .path())
                .isEqualTo(Matmul.Path.GEMV);
    }

    /**
     * Over half copies the half tensor cores take up to 48 rows, and up to a block's 64 tokens the
     * large weights, where the BLAS over the copies is slower (an 8B's gate|up and down, not its
     * qkv and output projection).
     */
    @Test
    void pastFortyEightRowsOnlyLargeWeightsTakeTheHalfTensorCoresOverHalfCopies() {
        assertThat(Matmul.halfProductsOverCopies(48, 4096L * 4096)).isTrue();
        assertThat(Matmul.halfProductsOverCopies(49, 4096L * 4096)).isFalse();
        assertThat(Matmul.halfProductsOverCopies(64, 6144L * 4096)).isFalse();
        assertThat(Matmul.halfProductsOverCopies(64, 4096L * 14336)).isTrue();
        assertThat(Matmul.halfProductsOverCopies(64, 28672L * 4096)).isTrue();
        assertThat(Matmul.halfProductsOverCopies(65, 28672L * 4096)).isFalse();
    }

    /**
     * ls_mmh_* splits a product's weight blocks into as many shares as one wave of two blocks per
     * multiprocessor holds, each at least four groups of four blocks.
     */
    @Test
    void halfTensorCoreProductsSplitTheirBlocksIntoOneWave() {
        // 8B at 64 tokens on 132 multiprocessors: gate|up 224 tiles, down 32 (of 448 blocks), qkv 48, o 32
        assertThat(Matmul.mmhSplits(Matmul.mmhTiles(28672, 64), 4096 / 32, 132)).isEqualTo(1);
        assertThat(Matmul.mmhSplits(Matmul.mmhTiles(4096, 64), 14336 / 32, 132)).isEqualTo(8);
        assertThat(Matmul.mmhSplits(Matmul.mmhTiles(6144, 64), 4096 / 32, 132)).isEqualTo(5);
        assertThat(Matmul.mmhSplits(Matmul.mmhTiles(4096, 40), 4096 / 32, 132)).isEqualTo(8);
        // short rows: shares of four groups at least (1024 values: 8 groups, so 2)
        assertThat(Matmul.mmhSplits(Matmul.mmhTiles(200, 9), 1024 / 32, 132)).isEqualTo(2);
        assertThat(Matmul.mmhSplits(Matmul.mmhTiles(200, 9), 256 / 32, 132)).isEqualTo(1);
        assertThat(Matmul.mmhSplits(Matmul.mmhTiles(65536, 64), 4096 / 32, 132)).isEqualTo(1);
    }

    /**
     * ls_mmq_* splits a product's weight blocks when its tiles would leave multiprocessors idle:
     * enough shares for two blocks per multiprocessor, each at least four stages of four blocks.
     */
    @Test
    void int8TensorCoreProductsSplitTheirBlocksOnlyWhereTheirTilesCannotFillTheDevice() {
        // 8B at 64 tokens on 132 multiprocessors: gate|up 448 tiles, down 64 of 448 blocks, qkv 96
        assertThat(Matmul.mmqSplits(Matmul.mmqTiles(28672, 64), 4096 / 32, 132)).isEqualTo(1);
        assertThat(Matmul.mmqSplits(Matmul.mmqTiles(4096, 64), 14336 / 32, 132)).isEqualTo(5);
        assertThat(Matmul.mmqSplits(Matmul.mmqTiles(6144, 64), 4096 / 32, 132)).isEqualTo(3);
        // short rows: shares of four stages at least (1024 values: 8 stages, so 2)
        assertThat(Matmul.mmqSplits(Matmul.mmqTiles(200, 9), 1024 / 32, 132)).isEqualTo(2);
        assertThat(Matmul.mmqSplits(Matmul.mmqTiles(200, 9), 256 / 32, 132)).isEqualTo(1);
    }

    @Test
    void denseKQuantProductsRoundTheirActivationsToQ8KIntegersAndExpertsToQ8KFloats() {
        GpuWeight.Band q5k = matrix(WeightFormat.Q5_K).bands.getFirst();
        assertThat(Matmul.gemvRounding(q5k)).isEqualTo(Matmul.Prepared.Q8_K_INT);
        assertThat(Matmul.expertGemvRounding(q5k)).isEqualTo(Matmul.Prepared.Q8_K_FLOAT);
        GpuWeight.Band q2k = matrix(WeightFormat.Q2_K).bands.getFirst();
        assertThat(Matmul.gemvRounding(q2k)).as("Q2_K: the float GEMV").isEqualTo(Matmul.Prepared.Q8_K_FLOAT);
        GpuWeight.Band q4 = matrix(WeightFormat.Q4_0).bands.getFirst();
        assertThat(Matmul.gemvRounding(q4)).isEqualTo(Matmul.Prepared.Q8_0_INT);
        assertThat(Matmul.expertGemvRounding(q4)).isEqualTo(Matmul.Prepared.Q8_0_INT);
    }

    /**
     * The output projection's input: the decode attention writes its Q8_0 form where each block's
     * heads are whole blocks of 32 values; a prompt's tiled attention, and heads of 16 alone, do not.
     */
    @Test
    void theDecodeAttentionWritesTheQ8FormOfTheOutputProjectionsInput() {
        AttentionShape wide = new AttentionShape(2, 2, 32, 0.18f, true, 0);
        Matmul projection = new Matmul(matrix(WeightFormat.Q4_0), out, 8, x, Matmul.Path.GEMV, false);
        Attention decode = new Attention(qkv, kv, 1, wide, 4, 1, 8, out, true, 0, null, false, false, false);
        assertThat(record(decode, projection))
                .containsExactly(decode.quantizing(), projection.afterQuantizingProducer());
        assertThat(decode.quantizing().quantize()).isTrue();

        Attention tiled = new Attention(qkv, kv, 1, wide, 1, 1, 8, out, true, 2, null, false, false, false);
        Attention narrow = new Attention(qkv, kv, 1, shape, 4, 1, 8, out, true, 0, null, false, false, false);
        Matmul blas = new Matmul(matrix(WeightFormat.Q4_0), out, 8, x, Matmul.Path.BLAS, false);
        assertThat(record(tiled, projection)).containsExactly(tiled, projection);
        assertThat(record(narrow, projection)).as("16 values a block").containsExactly(narrow, projection);
        assertThat(record(decode, blas)).containsExactly(decode, blas);
    }

    @Test
    void productsThatDoNotReadInt8ActivationsLeaveTheirProducerAlone() {
        RmsNorm producer = new RmsNorm(x, norm, 1e-5f, 8, xb, false);
        Matmul floats = new Matmul(matrix(WeightFormat.Q4_K), xb, 8, qkv, Matmul.Path.GEMV, false);
        Matmul blas = new Matmul(matrix(WeightFormat.Q4_0), xb, 8, qkv, Matmul.Path.BLAS, false);
        Matmul otherInput = new Matmul(matrix(WeightFormat.Q4_0), out, 8, qkv, Matmul.Path.GEMV, false);
        for (Matmul m : List.of(floats, blas, otherInput)) {
            assertThat(record(producer, m)).containsExactly(producer, m);
        }
    }

    @Test
    void theQueryAndKeyRopesOfOneRowRunAsOne() {
        RotaryEmbedding queries = new RotaryEmbedding(qkv, 0, 4, 16, Rope.Style.NORMAL, table, 8);
        RotaryEmbedding keys = new RotaryEmbedding(qkv, 64, 4, 16, Rope.Style.NORMAL, table, 8);
        assertThat(record(queries, keys)).containsExactly(queries.widened(4));
        RotaryEmbedding apart = new RotaryEmbedding(qkv, 80, 2, 16, Rope.Style.NORMAL, table, 8);
        assertThat(record(queries, apart)).as("not adjacent").hasSize(2);
    }

    @Test
    void theRopeOfAnAttentionsKeysAlsoWritesTheCache() {
        RotaryEmbedding both = new RotaryEmbedding(qkv, 0, 8, 16, Rope.Style.NORMAL, table, 8);
        Attention attention = new Attention(qkv, kv, 1, shape, 4, 1, 8, out, false, 0, null, false, false, false);
        assertThat(record(both, attention))
                .containsExactly(both.writingCache(kv, 1, shape), attention.afterCacheWrite());
        RotaryEmbedding queriesOnly = new RotaryEmbedding(qkv, 0, 4, 16, Rope.Style.NORMAL, table, 8);
        assertThat(record(queriesOnly, attention)).as("keys not rotated here").containsExactly(queriesOnly, attention);
        Attention q8 = new Attention(
                qkv, storage(KvCacheType.Q8_0), 1, shape, 4, 1, 8, out, false, 0, null, false, false, false);
        assertThat(record(both, q8))
                .as("the rope writes halves: a Q8_0 cache is the attention's")
                .containsExactly(both, q8);
    }

    /**
     * qwen3's and gemma3's attention input: the query heads' norm, the key heads', the query rope,
     * the key rope, the attention. The norms become one operation, which the query rope takes in;
     * the key rope widens it and it writes the cache: one launch before the attention.
     */
    @Test
    void theQueryAndKeyNormsAndRopesOfOneRowRunAsOneLaunchThatWritesTheCache() {
        HeadRmsNorm queriesNorm = new HeadRmsNorm(qkv, 0, 4, 16, qNorm, 1e-6f, 8);
        HeadRmsNorm keysNorm = new HeadRmsNorm(qkv, 64, 4, 16, kNorm, 1e-6f, 8);
        RotaryEmbedding queries = new RotaryEmbedding(qkv, 0, 4, 16, Rope.Style.NEOX, table, 8);
        RotaryEmbedding keys = new RotaryEmbedding(qkv, 64, 4, 16, Rope.Style.NEOX, table, 8);
        Attention attention = new Attention(qkv, kv, 1, shape, 4, 1, 8, out, false, 0, null, false, false, false);
        QkNorm norms = new QkNorm(queriesNorm, keysNorm);

        assertThat(record(queriesNorm, keysNorm)).containsExactly(norms);
        assertThat(norms.heads()).isEqualTo(8);
        assertThat(record(queriesNorm, keysNorm, queries)).containsExactly(queries.normalizing(norms));
        RotaryEmbedding both = queries.normalizing(norms).widened(4);
        assertThat(record(queriesNorm, keysNorm, queries, keys)).containsExactly(both);
        assertThat(both.norm()).isEqualTo(norms);
        assertThat(both.heads()).isEqualTo(8);
        assertThat(record(queriesNorm, keysNorm, queries, keys, attention))
                .containsExactly(both.writingCache(kv, 1, shape), attention.afterCacheWrite());
        assertThat(both.writingCache(kv, 1, shape).norm()).as("the norms stay").isEqualTo(norms);
    }

    @Test
    void headNormsThatDoNotLineUpStayApart() {
        HeadRmsNorm queriesNorm = new HeadRmsNorm(qkv, 0, 4, 16, qNorm, 1e-6f, 8);
        for (HeadRmsNorm keysNorm : List.of(
                new HeadRmsNorm(qkv, 80, 4, 16, kNorm, 1e-6f, 8), // a gap after the queries
                new HeadRmsNorm(qkv, 48, 4, 16, kNorm, 1e-6f, 8), // overlapping them
                new HeadRmsNorm(out, 64, 4, 16, kNorm, 1e-6f, 8), // other activations
                new HeadRmsNorm(qkv, 64, 4, 16, kNorm, 1e-6f, 4), // other rows
                new HeadRmsNorm(qkv, 64, 4, 16, kNorm, 1e-5f, 8), // another epsilon
                new HeadRmsNorm(qkv, 64, 2, 32, kNorm, 1e-6f, 8))) { // other heads
            assertThat(record(queriesNorm, keysNorm)).as("%s", keysNorm).containsExactly(queriesNorm, keysNorm);
        }
        HeadRmsNorm keysNorm = new HeadRmsNorm(qkv, 64, 4, 16, kNorm, 1e-6f, 8);
        assertThat(record(keysNorm, queriesNorm)).as("keys first").containsExactly(keysNorm, queriesNorm);
        QkNorm norms = new QkNorm(queriesNorm, keysNorm);
        HeadRmsNorm third = new HeadRmsNorm(qkv, 128, 4, 16, kNorm, 1e-6f, 8);
        assertThat(record(queriesNorm, keysNorm, third)).as("a third norm").containsExactly(norms, third);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new QkNorm(keysNorm, queriesNorm))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRopeOfOtherHeadsRowsOrActivationsLeavesTheNormsApart() {
        HeadRmsNorm queriesNorm = new HeadRmsNorm(qkv, 0, 4, 16, qNorm, 1e-6f, 8);
        HeadRmsNorm keysNorm = new HeadRmsNorm(qkv, 64, 4, 16, kNorm, 1e-6f, 8);
        QkNorm norms = new QkNorm(queriesNorm, keysNorm);
        for (RotaryEmbedding rope : List.of(
                new RotaryEmbedding(qkv, 64, 4, 16, Rope.Style.NEOX, table, 8), // the keys first
                new RotaryEmbedding(qkv, 16, 4, 16, Rope.Style.NEOX, table, 8), // not from the first head
                new RotaryEmbedding(out, 0, 4, 16, Rope.Style.NEOX, table, 8), // other activations
                new RotaryEmbedding(qkv, 0, 4, 16, Rope.Style.NEOX, table, 4), // other rows
                new RotaryEmbedding(qkv, 0, 2, 32, Rope.Style.NEOX, table, 8))) { // other heads
            assertThat(record(queriesNorm, keysNorm, rope)).as("%s", rope).containsExactly(norms, rope);
        }
        // one head norm alone (no pair of norms) stays a launch of its own
        RotaryEmbedding queries = new RotaryEmbedding(qkv, 0, 4, 16, Rope.Style.NEOX, table, 8);
        assertThat(record(queriesNorm, queries)).containsExactly(queriesNorm, queries);
        // a rope that already writes the cache takes no norms
        RotaryEmbedding writing =
                new RotaryEmbedding(qkv, 0, 8, 16, Rope.Style.NEOX, table, 8).writingCache(kv, 1, shape);
        assertThat(record(queriesNorm, keysNorm, writing)).containsExactly(norms, writing);
    }

    @Test
    void aNormedRopeWritesTheCacheOnlyWhereItRotatesEveryNormedHead() {
        Attention attention = new Attention(qkv, kv, 1, shape, 4, 1, 8, out, false, 0, null, false, false, false);
        HeadRmsNorm queriesNorm = new HeadRmsNorm(qkv, 0, 4, 16, qNorm, 1e-6f, 8);
        // norms over the queries, the keys and the values: the kernel would copy values it normalizes
        HeadRmsNorm pastTheKeys = new HeadRmsNorm(qkv, 64, 8, 16, kNorm, 1e-6f, 8);
        RotaryEmbedding both = new RotaryEmbedding(qkv, 0, 8, 16, Rope.Style.NEOX, table, 8);
        RotaryEmbedding normed = both.normalizing(new QkNorm(queriesNorm, pastTheKeys));
        assertThat(record(queriesNorm, pastTheKeys, both, attention)).containsExactly(normed, attention);
        // the queries' rope alone does not reach the keys
        HeadRmsNorm keysNorm = new HeadRmsNorm(qkv, 64, 4, 16, kNorm, 1e-6f, 8);
        RotaryEmbedding queries = new RotaryEmbedding(qkv, 0, 4, 16, Rope.Style.NEOX, table, 8);
        assertThat(record(queriesNorm, keysNorm, queries, attention))
                .containsExactly(queries.normalizing(new QkNorm(queriesNorm, keysNorm)), attention);
    }

    /** A cache whose buffers no test launches anything on. */
    private static GpuKvStorage storage(KvCacheType type) {
        return new GpuKvStorage(OWNER, new int[2], new int[] {4}, 16, D, type, null, null, null, null);
    }

    private static List<DeviceOp> record(DeviceOp... ops) {
        List<DeviceOp> recorded = new ArrayList<>();
        for (DeviceOp op : ops) {
            Fusions.append(recorded, op);
        }
        return recorded;
    }

    private static GpuActivations activations(int cols) {
        return new GpuActivations(OWNER, 8, cols, null);
    }

    private static GpuWeight matrix(WeightFormat format) {
        GpuWeight.Band band = new GpuWeight.Band(format, format.activation(), 0, 3 * D, null, 0, null);
        return GpuWeight.matrix(OWNER, "w", format.type(), Weight.Kind.MATRIX, D, List.of(band));
    }
}
