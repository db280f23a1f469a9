package com.llmserve.engine.backend.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.backend.AttentionShape;
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
    private final GpuKvStorage kv = new GpuKvStorage(OWNER, new int[2], new int[] {4}, 16, D, null, null);

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
    void theRowCountTheWeightsFormatAndTheDeviceChooseTheProductsKernels() {
        GpuOptions defaults = GpuOptions.defaults().withMmqMaxRows(128);
        GpuActivations rows = new GpuActivations(OWNER, 256, D, null);
        assertThat(Matmul.of(matrix(WeightFormat.Q4_0), rows, 64, qkv, GpuOptions.defaults(), true)
                        .path())
                .as("off by default")
                .isEqualTo(Matmul.Path.BLAS);
        GpuWeight q4 = matrix(WeightFormat.Q4_0);
        assertThat(Matmul.of(q4, rows, 8, qkv, defaults, true).path()).isEqualTo(Matmul.Path.GEMV);
        assertThat(Matmul.of(q4, rows, 9, qkv, defaults, true).path()).isEqualTo(Matmul.Path.MMQ);
        assertThat(Matmul.of(q4, rows, 128, qkv, defaults, true).path()).isEqualTo(Matmul.Path.MMQ);
        assertThat(Matmul.of(q4, rows, 129, qkv, defaults, true).path()).isEqualTo(Matmul.Path.BLAS);
        // no int8 tensor cores (AMD, older NVIDIA), or turned off: the GEMV, then BLAS from gemmMinRows
        assertThat(Matmul.of(q4, rows, 16, qkv, defaults, false).path()).isEqualTo(Matmul.Path.GEMV);
        assertThat(Matmul.of(q4, rows, 32, qkv, defaults, false).path()).isEqualTo(Matmul.Path.BLAS);
        assertThat(Matmul.of(q4, rows, 64, qkv, defaults.withMmqMaxRows(0), true)
                        .path())
                .isEqualTo(Matmul.Path.BLAS);
        // formats without tensor-core kernels (Q5_0's GEMV is integer, its blocks are not), and batch
        // invariance, never take them
        assertThat(Matmul.of(matrix(WeightFormat.Q5_0), rows, 16, qkv, defaults, true)
                        .path())
                .isEqualTo(Matmul.Path.GEMV);
        assertThat(Matmul.of(matrix(WeightFormat.Q4_K), rows, 16, qkv, defaults, true)
                        .path())
                .isEqualTo(Matmul.Path.GEMV);
        assertThat(Matmul.of(q4, rows, 64, qkv, defaults.withBatchInvariant(true), true)
                        .path())
                .isEqualTo(Matmul.Path.GEMV);
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
        Attention attention = new Attention(qkv, kv, 1, shape, 4, 8, out, false, 0, null);
        assertThat(record(both, attention))
                .containsExactly(both.writingCache(kv, 1, shape), attention.afterCacheWrite());
        RotaryEmbedding queriesOnly = new RotaryEmbedding(qkv, 0, 4, 16, Rope.Style.NORMAL, table, 8);
        assertThat(record(queriesOnly, attention)).as("keys not rotated here").containsExactly(queriesOnly, attention);
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
