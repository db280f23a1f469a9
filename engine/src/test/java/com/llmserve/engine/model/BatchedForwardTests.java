package com.llmserve.engine.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.backend.cpu.CpuKernels;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.kv.BlockPool;
import com.llmserve.engine.kv.BlockTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Batching must not change results: sequences prefilled and decoded together, at different
 * positions, in shuffled block order, give the logits each gives alone. Alone and together take
 * different kernels (dot products below four rows, tiles above), whose float sums differ in the
 * last bits, and the F16 KV cache can round such a difference to one half-ulp (~5e-4 relative):
 * hence a tolerance of 5e-3 on logits of magnitude ~10, far below any logic error.
 */
class BatchedForwardTests {

    private static CpuBackend backend;
    private static GgufFile file;

    @BeforeAll
    static void open() throws IOException {
        backend = new CpuBackend(2);
        file = GgufFile.open(TestData.model("stories260K.gguf"));
    }

    @AfterAll
    static void close() {
        file.close();
        backend.close();
    }

    @Test
    void sequencesAtDifferentPositionsInOneBatchMatchTheirSoloRuns() {
        int[][] prompts = {
            {1, 403, 407, 261, 378},
            {1, 365, 268, 471, 421, 349, 267, 287, 299, 500, 334, 289, 378, 44},
            {1, 400},
        };
        int steps = 6;
        try (LanguageModel model = Architectures.loadLanguageModel(file, backend, ModelOptions.DEFAULT)) {
            List<float[]> solo = new ArrayList<>();
            for (int[] p : prompts) {
                solo.addAll(run(model, List.of(p), steps));
            }
            List<float[]> together = run(model, List.of(prompts), steps);
            // together interleaves sequences per step; solo lists them sequence by sequence
            for (int s = 0; s < prompts.length; s++) {
                for (int k = 0; k <= steps; k++) {
                    float[] a = solo.get(s * (steps + 1) + k);
                    float[] b = together.get(k * prompts.length + s);
                    for (int i = 0; i < a.length; i++) {
                        assertThat(b[i])
                                .as("sequence %d step %d token %d", s, k, i)
                                .isCloseTo(a[i], within(5e-3f));
                    }
                }
            }
        }
    }

    /**
     * A batch-invariant backend gives every sequence exactly its solo logits, bit for bit: its
     * products take the single-token kernels whatever the batch (F32, and Q8_0's integer GEMV).
     */
    @ParameterizedTest
    @ValueSource(strings = {"stories260K.gguf", "stories260K-q8_0.gguf", "stories260K-q4_0.gguf"})
    void aBatchInvariantBackendGivesEverySequenceItsSoloLogitsExactly(String modelFile) throws IOException {
        int[][] prompts = {
            {1, 403, 407, 261, 378},
            {1, 365, 268, 471, 421, 349, 267, 287, 299, 500, 334, 289, 378, 44},
            {1, 400},
            {1, 365, 268, 471, 421},
            {1, 299, 500},
        };
        int steps = 6;
        try (CpuBackend invariant = new CpuBackend(2, true, true);
                GgufFile f = GgufFile.open(TestData.model(modelFile));
                LanguageModel model = Architectures.loadLanguageModel(f, invariant, ModelOptions.DEFAULT)) {
            assertThat(invariant.description()).contains("batch-invariant");
            List<float[]> solo = new ArrayList<>();
            for (int[] p : prompts) {
                solo.addAll(run(model, List.of(p), steps));
            }
            List<float[]> together = run(model, List.of(prompts), steps);
            for (int s = 0; s < prompts.length; s++) {
                for (int k = 0; k <= steps; k++) {
                    assertThat(together.get(k * prompts.length + s))
                            .as("sequence %d step %d", s, k)
                            .containsExactly(solo.get(s * (steps + 1) + k));
                }
            }
        }
    }

    /**
     * The native kernels compute a row and token the same way in every batch, so a backend on them
     * needs no batch-invariant mode for files whose matrices they all cover (the tiny files: every
     * matrix Q8_0, Q4_0 with a Q6_K output, Q4_K with Q6_K, Q6_K). The stories260K quantizations
     * keep F32 matrices of an odd width, which take the Java kernels: they need the mode.
     */
    @ParameterizedTest
    @ValueSource(strings = {"tiny-Q8_0.gguf", "tiny-Q4_0.gguf", "tiny-Q4_K_M.gguf", "tiny-Q6_K.gguf"})
    void theNativeKernelsGiveEverySequenceItsSoloLogitsExactlyWithoutTheInvariantMode(String modelFile)
            throws IOException {
        int[][] prompts = {
            {1, 403, 407, 261, 378},
            {1, 365, 268, 471, 421, 349, 267, 287, 299, 500, 334, 289, 378, 44},
            {1, 400},
            {1, 365, 268, 471, 421},
            {1, 299, 500},
        };
        int steps = 6;
        assumeTrue(CpuBackend.nativeKernelsAvailable(), "no native CPU kernels here");
        try (CpuBackend nativeBackend = new CpuBackend(2, true, false, CpuKernels.NATIVE);
                GgufFile f = GgufFile.open(TestData.model(modelFile));
                LanguageModel model = Architectures.loadLanguageModel(f, nativeBackend, ModelOptions.DEFAULT)) {
            assertThat(nativeBackend.description()).doesNotContain("batch-invariant");
            List<float[]> solo = new ArrayList<>();
            for (int[] p : prompts) {
                solo.addAll(run(model, List.of(p), steps));
            }
            List<float[]> together = run(model, List.of(prompts), steps);
            for (int s = 0; s < prompts.length; s++) {
                for (int k = 0; k <= steps; k++) {
                    assertThat(together.get(k * prompts.length + s))
                            .as("sequence %d step %d", s, k)
                            .containsExactly(solo.get(s * (steps + 1) + k));
                }
            }
        }
    }

    @Test
    void aBatchLargerThanTheScratchRunsInChunksWithTheSameResult() {
        int[] tokens = {1, 365, 268, 471, 421, 349, 267, 287, 299, 500, 334, 289, 378, 44, 300, 301, 302};
        try (LanguageModel whole = Architectures.loadLanguageModel(file, backend, ModelOptions.DEFAULT);
                LanguageModel chunked = Architectures.loadLanguageModel(file, backend, new ModelOptions(3, 0))) {
            float[] a = allLogits(whole, tokens);
            float[] b = allLogits(chunked, tokens);
            assertThat(b).hasSameSizeAs(a);
            for (int i = 0; i < a.length; i++) {
                assertThat(b[i])
                        .as("row %d token %d", i / whole.vocabSize(), i % whole.vocabSize())
                        .isCloseTo(a[i], within(5e-3f));
            }
        }
    }

    @Test
    void theTopTokensOfEachRowAreThoseOfItsWholeLogits() {
        int[] tokens = {1, 365, 268, 471, 421, 349, 267, 287, 299, 500, 334, 289, 378, 44, 300, 301, 302};
        // scratch of 3 rows: the logit rows are chosen in several chunks
        try (LanguageModel model = Architectures.loadLanguageModel(file, backend, new ModelOptions(3, 0))) {
            float[] whole = allLogits(model, tokens);
            int vocab = model.vocabSize();
            int k = 5;
            BlockPool pool = new BlockPool(8, 4);
            try (KvStorage kv = model.newKvStorage(pool.capacity(), pool.blockSize())) {
                BlockTable t = new BlockTable(pool);
                t.ensureCapacity(tokens.length);
                Logits top = model.forward(
                        Batch.builder(4)
                                .add(t.blocks(), 0, tokens, Batch.Logits.ALL)
                                .build(),
                        kv,
                        k);
                assertThat(top.topK()).isEqualTo(k);
                assertThat(top.rows()).isEqualTo(tokens.length);
                for (int r = 0; r < tokens.length; r++) {
                    float[] row = java.util.Arrays.copyOfRange(whole, r * vocab, (r + 1) * vocab);
                    int[] order = java.util.stream.IntStream.range(0, vocab)
                            .boxed()
                            .sorted((i, j) -> Float.compare(row[j], row[i]))
                            .mapToInt(Integer::intValue)
                            .toArray();
                    assertThat(top.best(r)).as("row %d", r).isEqualTo(argmax(row));
                    for (int j = 0; j < k; j++) {
                        assertThat(top.topIds()[r * k + j])
                                .as("row %d rank %d", r, j)
                                .isEqualTo(order[j]);
                        assertThat(top.topValues()[r * k + j]).isCloseTo(row[order[j]], within(5e-3f));
                    }
                }
                assertThatThrownBy(top::array).isInstanceOf(IllegalStateException.class);
                assertThatThrownBy(() -> model.forward(
                                Batch.builder(4)
                                        .add(t.blocks(), 0, new int[] {1}, Batch.Logits.LAST)
                                        .build(),
                                kv,
                                Backend.MAX_TOP_K + 1))
                        .hasMessageContaining("topK must be in [0, " + Backend.MAX_TOP_K + "]");
            }
        }
    }

    private static float[] allLogits(LanguageModel model, int[] tokens) {
        BlockPool pool = new BlockPool(8, 4);
        try (KvStorage kv = model.newKvStorage(pool.capacity(), pool.blockSize())) {
            BlockTable t = new BlockTable(pool);
            t.ensureCapacity(tokens.length);
            Logits l = model.forward(
                    Batch.builder(4)
                            .add(t.blocks(), 0, tokens, Batch.Logits.ALL)
                            .build(),
                    kv);
            return java.util.Arrays.copyOf(l.array(), l.rows() * l.vocabSize());
        }
    }

    /**
     * Prefills all prompts in one batch, then decodes {@code steps} greedy tokens for all of them
     * per batch. Blocks come from a pool whose free order is shuffled, so tables are not contiguous.
     * Returns the logits of every step, sequence-minor.
     */
    private static List<float[]> run(LanguageModel model, List<int[]> prompts, int steps) {
        BlockPool pool = new BlockPool(40, 4);
        shuffle(pool, new Random(prompts.size()));
        List<float[]> out = new ArrayList<>();
        try (KvStorage kv = model.newKvStorage(pool.capacity(), pool.blockSize())) {
            int n = prompts.size();
            BlockTable[] tables = new BlockTable[n];
            int[] pos = new int[n];
            Batch.Builder b = Batch.builder(4);
            for (int s = 0; s < n; s++) {
                tables[s] = new BlockTable(pool);
                tables[s].ensureCapacity(prompts.get(s).length + steps + 1);
                b.add(tables[s].blocks(), 0, prompts.get(s), Batch.Logits.LAST);
                pos[s] = prompts.get(s).length;
            }
            Logits logits = model.forward(b.build(), kv);
            for (int k = 0; ; k++) {
                int[] next = new int[n];
                for (int s = 0; s < n; s++) {
                    float[] row = logits.row(s);
                    out.add(row);
                    next[s] = argmax(row);
                }
                if (k == steps) {
                    break;
                }
                Batch.Builder d = Batch.builder(4);
                for (int s = 0; s < n; s++) {
                    d.add(tables[s].blocks(), pos[s]++, new int[] {next[s]}, Batch.Logits.LAST);
                }
                logits = model.forward(d.build(), kv);
            }
            for (BlockTable t : tables) {
                t.release();
            }
        }
        assertThat(pool.used()).isZero();
        return out;
    }

    /** Takes every block and gives them back in random order, so allocation order is scrambled. */
    private static void shuffle(BlockPool pool, Random r) {
        List<Integer> all = new ArrayList<>();
        while (pool.free() > 0) {
            all.add(pool.allocate());
        }
        java.util.Collections.shuffle(all, r);
        all.forEach(pool::release);
    }

    private static int argmax(float[] v) {
        int best = 0;
        for (int i = 1; i < v.length; i++) {
            if (v[i] > v[best]) {
                best = i;
            }
        }
        return best;
    }
}
