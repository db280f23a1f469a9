package com.llmserve.engine.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufBuilder;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufTensor;
import com.llmserve.engine.gguf.GgufValueType;
import com.llmserve.engine.kv.BlockPool;
import com.llmserve.engine.kv.BlockTable;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each llama-family variant against the float64 reference decoder; loading errors by name. */
class ArchitectureTests {

    private static final int[] TOKENS = {1, 17, 5, 42, 9, 63, 2, 28, 11, 70, 33, 4};

    @TempDir
    Path dir;

    private static CpuBackend backend;

    @BeforeAll
    static void start() {
        backend = new CpuBackend(2);
    }

    @AfterAll
    static void stop() {
        backend.close();
    }

    @Test
    void referenceDecoderAgreesWithLlamaCppOnStories() throws IOException {
        // the oracle must itself be right: llama.cpp's first step of "Once upon a time"
        try (GgufFile f = GgufFile.open(TestData.model("stories260K.gguf"))) {
            double[][] logits = new ReferenceDecoder(f, false).logits(new int[] {1, 403, 407, 261, 378});
            double[] last = logits[4];
            assertThat(argmax(last)).isEqualTo(432);
            // golden/generation/stories260K.json, first case, step 0
            assertThat(logSoftmax(last)[432]).isCloseTo(-0.0317530669, org.assertj.core.data.Offset.offset(0.01));
            assertThat(logSoftmax(last)[383]).isCloseTo(-3.54816103, org.assertj.core.data.Offset.offset(0.01));
        }
    }

    @Test
    void llamaMatchesTheReference() throws IOException {
        assertMatchesReference(SyntheticModel.Spec.llama(), false);
    }

    @Test
    void tiedEmbeddingsUseTheTokenTableAsOutput() throws IOException {
        assertMatchesReference(SyntheticModel.Spec.llama().tiedEmbeddings(), false);
    }

    @Test
    void qwen2AddsQkvBiasAndRotatesNeoxPairs() throws IOException {
        assertMatchesReference(
                SyntheticModel.Spec.llama().arch("qwen2").withBias().tiedEmbeddings(), true);
    }

    @Test
    void mistralLimitsAttentionToItsSlidingWindow() throws IOException {
        SyntheticModel.Spec spec = SyntheticModel.Spec.llama().arch("mistral").window(4);
        assertMatchesReference(spec, false);
        // and the window matters: without it the late positions differ
        try (GgufFile windowed = GgufFile.open(SyntheticModel.write(dir, "w.gguf", spec));
                GgufFile full = GgufFile.open(SyntheticModel.write(dir, "f.gguf", spec.window(0)))) {
            double[][] a = new ReferenceDecoder(windowed, false).logits(TOKENS);
            double[][] b = new ReferenceDecoder(full, false).logits(TOKENS);
            assertThat(maxDiff(a[3], b[3])).isLessThan(1e-9);
            assertThat(maxDiff(a[TOKENS.length - 1], b[TOKENS.length - 1])).isGreaterThan(1e-3);
        }
    }

    @Test
    void mixtralStyleExpertsUnderLlamaSumTheChosenExpertsWithRenormalizedWeights() throws IOException {
        // copies of the dense feed-forward: any choice of 2 of 4, weighted by renormalized
        // probabilities that sum to 1, gives the dense output back
        SyntheticModel.Spec dense = SyntheticModel.Spec.llama();
        try (GgufFile moeFile = GgufFile.open(SyntheticModel.write(dir, "moe.gguf", dense.copiedExperts(4, 2)));
                GgufFile denseFile = GgufFile.open(SyntheticModel.write(dir, "dense.gguf", dense));
                LanguageModel moe = Architectures.loadLanguageModel(moeFile, backend, ModelOptions.DEFAULT);
                LanguageModel plain = Architectures.loadLanguageModel(denseFile, backend, ModelOptions.DEFAULT)) {
            float[] a = allLogits(moe);
            float[] b = allLogits(plain);
            double worst = 0;
            double largest = 0;
            for (int i = 0; i < a.length; i++) {
                worst = Math.max(worst, Math.abs(a[i] - b[i]));
                largest = Math.max(largest, Math.abs(b[i]));
            }
            // rounding only: the experts' products take the one-token or the tiled kernel by how many
            // tokens chose them, the dense one the tiled kernel for all; a last-bit difference that
            // flips a key's rounding to F16 in the cache shows as ~1e-4 of the logits. A wrong
            // renormalization would move them by a share of their size.
            assertThat(worst).isLessThan(1e-3 * largest);
        }
    }

    /**
     * Found by ModelLoadingFuzzTests: with fewer batch rows than experts used per token, the
     * experts' scratch (as many rows as a batch) could not hold one token's pairs, and every step
     * failed with IllegalArgumentException.
     */
    @Test
    void moreExpertsUsedThanBatchRowsStillGiveTheDenseOutput() throws IOException {
        SyntheticModel.Spec dense = SyntheticModel.Spec.llama();
        ModelOptions twoRows = new ModelOptions(2, 0);
        try (GgufFile moeFile = GgufFile.open(SyntheticModel.write(dir, "moe3.gguf", dense.copiedExperts(4, 3)));
                GgufFile denseFile = GgufFile.open(SyntheticModel.write(dir, "dense.gguf", dense));
                LanguageModel moe = Architectures.loadLanguageModel(moeFile, backend, twoRows);
                LanguageModel plain = Architectures.loadLanguageModel(denseFile, backend, twoRows)) {
            float[] a = allLogits(moe);
            float[] b = allLogits(plain);
            double worst = 0;
            double largest = 0;
            for (int i = 0; i < a.length; i++) {
                worst = Math.max(worst, Math.abs(a[i] - b[i]));
                largest = Math.max(largest, Math.abs(b[i]));
            }
            assertThat(worst).isLessThan(1e-3 * largest);
        }
    }

    @Test
    void expertsUsedBeyondTheExpertCountAreRefused() throws IOException {
        Path p = SyntheticModel.write(
                dir, "moe.gguf", SyntheticModel.Spec.llama().copiedExperts(2, 3));
        try (GgufFile f = GgufFile.open(p)) {
            assertThatThrownBy(() -> Architectures.loadLanguageModel(f, backend, ModelOptions.DEFAULT))
                    .isInstanceOf(InvalidModelException.class)
                    .hasMessageContaining("3 experts used of 2");
        }
    }

    /** Every row's logits of {@link #TOKENS} as one prompt. */
    private static float[] allLogits(LanguageModel model) {
        BlockPool pool = new BlockPool(4, 16);
        try (KvStorage kv = model.newKvStorage(pool.capacity(), pool.blockSize())) {
            BlockTable table = new BlockTable(pool);
            table.ensureCapacity(TOKENS.length);
            float[] logits = model.forward(
                            Batch.builder(pool.blockSize())
                                    .add(table.blocks(), 0, TOKENS, Batch.Logits.ALL)
                                    .build(),
                            kv)
                    .array()
                    .clone();
            table.release();
            return logits;
        }
    }

    @Test
    void unsupportedArchitectureNamesTheSupportedOnes() throws IOException {
        Path p = new GgufBuilder().kvString("general.architecture", "gpt2").writeTo(dir, "gpt2.gguf");
        try (GgufFile f = GgufFile.open(p)) {
            assertThatThrownBy(() -> Architectures.loadLanguageModel(f, backend, ModelOptions.DEFAULT))
                    .isInstanceOf(UnsupportedArchitectureException.class)
                    .hasMessageContaining("'gpt2'")
                    .hasMessageContaining("gemma2, gemma3, gpt-oss, llama, mistral, phi3, qwen2, qwen3, qwen3moe");
        }
    }

    /** A backend without gpt-oss's operations (the GPU's today) refuses the model before uploading anything. */
    @Test
    void gptOssIsRefusedAtLoadByABackendWithoutItsOperations() throws IOException {
        int[] uploads = {0};
        try (GgufFile f = GgufFile.open(TestData.model("tiny-gpt-oss-MXFP4.gguf"));
                CpuBackend lacking = new CpuBackend("lacking", 1, true) {
                    @Override
                    public java.util.Set<com.llmserve.engine.backend.Capability> capabilities() {
                        return java.util.EnumSet.of(com.llmserve.engine.backend.Capability.EXPERT_BIASES);
                    }

                    @Override
                    protected Weight doUploadVector(String name, float[] values) {
                        uploads[0]++;
                        return super.doUploadVector(name, values);
                    }
                }) {
            assertThatThrownBy(() -> Architectures.loadLanguageModel(f, lacking, ModelOptions.DEFAULT))
                    .isInstanceOf(InvalidModelException.class)
                    .hasMessageContaining("gpt-oss needs attention_sinks, swiglu_oai, softmax_of_top_k")
                    .hasMessageContaining("lacking backend");
            assertThat(uploads[0]).isZero();
        }
    }

    @Test
    void gptOssLoadsOnTheCpu() throws IOException {
        try (GgufFile f = GgufFile.open(TestData.model("tiny-gpt-oss-MXFP4.gguf"));
                LanguageModel model = Architectures.loadLanguageModel(f, backend, ModelOptions.DEFAULT)) {
            assertThat(model.architecture()).isEqualTo("gpt-oss");
            assertThat(model.toString()).contains("4 layers, width 256, 8/2 heads, vocab 512");
        }
    }

    @Test
    void aTensorOfTheWrongShapeIsNamed() throws IOException {
        Path p = new GgufBuilder()
                .kvString("general.architecture", "llama")
                .kvU32("llama.embedding_length", 8)
                .kvU32("llama.block_count", 1)
                .kvU32("llama.feed_forward_length", 16)
                .kvU32("llama.attention.head_count", 2)
                .tensor("token_embd.weight", GgmlType.F32, new long[] {8, 10}, new byte[320])
                .tensor("output_norm.weight", GgmlType.F32, new long[] {8}, new byte[32])
                .tensor("blk.0.attn_q.weight", GgmlType.F32, new long[] {8, 6}, new byte[192])
                .writeTo(dir, "bad.gguf");
        try (GgufFile f = GgufFile.open(p)) {
            assertThatThrownBy(() -> Architectures.loadLanguageModel(f, backend, ModelOptions.DEFAULT))
                    .isInstanceOf(InvalidModelException.class)
                    .hasMessageContaining("blk.0.attn_q.weight")
                    .hasMessageContaining("[8, 6]")
                    .hasMessageContaining("[8, 8]");
        }
    }

    /** More embedding rows than tokens would let the model choose ids that no token has: refused at load. */
    @Test
    void aVocabularyShorterThanTheEmbeddingRowsIsRefusedAtLoad() throws IOException {
        Path p = new GgufBuilder()
                .kvString("general.architecture", "llama")
                .kvU32("llama.embedding_length", 8)
                .kvU32("llama.block_count", 1)
                .kvU32("llama.feed_forward_length", 16)
                .kvU32("llama.attention.head_count", 2)
                .kvStrings("tokenizer.ggml.tokens", "<unk>", "<s>", "</s>", "a", "b", "c", "d", "e")
                .tensor("token_embd.weight", GgmlType.F32, new long[] {8, 10}, new byte[320])
                .writeTo(dir, "short-vocab.gguf");
        try (GgufFile f = GgufFile.open(p)) {
            assertThatThrownBy(() -> Architectures.loadLanguageModel(f, backend, ModelOptions.DEFAULT))
                    .isInstanceOf(InvalidModelException.class)
                    .hasMessageContaining("token_embd.weight")
                    .hasMessageContaining("10 token rows")
                    .hasMessageContaining("8 tokens");
        }
    }

    /** A llama of width 8, 4 heads (and 4 kv heads) of {@code keyLength} dimensions, feed-forward 16, its tensors (zeros) for 2 blocks. */
    private static GgufBuilder smallLlama(int layers, long keyLength) {
        GgufBuilder b = new GgufBuilder()
                .kvString("general.architecture", "llama")
                .kvU32("llama.embedding_length", 8)
                .kvU32("llama.block_count", layers)
                .kvU32("llama.feed_forward_length", 16)
                .kvU32("llama.attention.head_count", 4)
                .kvU32("llama.attention.head_count_kv", 4)
                .kvU32("llama.rope.dimension_count", 2)
                .kv(
                        "llama.attention.key_length",
                        GgufValueType.UINT32,
                        GgufBuilder.le(4).putInt((int) keyLength))
                .kv(
                        "llama.attention.value_length",
                        GgufValueType.UINT32,
                        GgufBuilder.le(4).putInt((int) keyLength))
                .tensor("token_embd.weight", GgmlType.F32, new long[] {8, 10}, new byte[320])
                .tensor("output_norm.weight", GgmlType.F32, new long[] {8}, new byte[32]);
        for (int l = 0; l < 2; l++) {
            String p = "blk." + l + ".";
            b.tensor(p + "attn_norm.weight", GgmlType.F32, new long[] {8}, new byte[32])
                    .tensor(p + "attn_q.weight", GgmlType.F32, new long[] {8, 8}, new byte[256])
                    .tensor(p + "attn_k.weight", GgmlType.F32, new long[] {8, 8}, new byte[256])
                    .tensor(p + "attn_v.weight", GgmlType.F32, new long[] {8, 8}, new byte[256])
                    .tensor(p + "attn_output.weight", GgmlType.F32, new long[] {8, 8}, new byte[256])
                    .tensor(p + "ffn_norm.weight", GgmlType.F32, new long[] {8}, new byte[32])
                    .tensor(p + "ffn_gate.weight", GgmlType.F32, new long[] {8, 16}, new byte[512])
                    .tensor(p + "ffn_up.weight", GgmlType.F32, new long[] {8, 16}, new byte[512])
                    // the second block's down projection is transposed: refused after the first block loaded
                    .tensor(
                            p + "ffn_down.weight",
                            GgmlType.F32,
                            l == 0 ? new long[] {16, 8} : new long[] {8, 16},
                            new byte[512]);
        }
        return b;
    }

    /** Found by ModelLoadingFuzzTests: block_count sized a list before any block was looked for. */
    @Test
    void aBlockCountBeyondTheFileIsRefusedBeforeAnythingIsSizedByIt() throws IOException {
        Path p = smallLlama(Integer.MAX_VALUE, 2).writeTo(dir, "blocks.gguf");
        try (GgufFile f = GgufFile.open(p)) {
            assertThatThrownBy(() -> Architectures.loadLanguageModel(f, backend, ModelOptions.DEFAULT))
                    .isInstanceOf(InvalidModelException.class)
                    .hasMessageContaining("block_count is 2147483647")
                    .hasMessageContaining("blk.2147483646.");
        }
    }

    /** Found by ModelLoadingFuzzTests: Rope.Yarn refused a zero attention factor with IllegalArgumentException. */
    @Test
    void aRopeAttentionFactorOfZeroIsAnInvalidModel() throws IOException {
        Path p = smallLlama(1, 2).kvF32("llama.rope.scaling.attn_factor", 0f).writeTo(dir, "attn-factor.gguf");
        try (GgufFile f = GgufFile.open(p)) {
            assertThatThrownBy(() -> Architectures.loadLanguageModel(f, backend, ModelOptions.DEFAULT))
                    .isInstanceOf(InvalidModelException.class)
                    .hasMessageContaining("attention factor 0.0");
        }
    }

    /**
     * 4 heads of 2^30 + 2 dimensions are 2^32 + 8 wide: in ints, 8, which the tensors' shapes
     * matched, so the model loaded and every step failed in the backend's argument checks
     * (IllegalArgumentException: rope heads that do not fit the rows).
     */
    @Test
    void headsWhoseWidthOverflowsAnIntAreRefused() throws IOException {
        Path p = smallLlama(1, (1L << 30) + 2).writeTo(dir, "wide-heads.gguf");
        try (GgufFile f = GgufFile.open(p)) {
            assertThatThrownBy(() -> Architectures.loadLanguageModel(f, backend, ModelOptions.DEFAULT))
                    .isInstanceOf(InvalidModelException.class)
                    .hasMessageContaining("heads of 1073741826 dimensions do not fit");
        }
    }

    /** A tensor refused in the second block closes every weight the backend made before it. */
    @Test
    void aRefusedLoadClosesWhatItUploaded() throws IOException {
        Path p = smallLlama(2, 2).writeTo(dir, "late-refusal.gguf");
        int[] made = {0};
        int[] released = {0};
        try (GgufFile f = GgufFile.open(p);
                CpuBackend counting = new CpuBackend("cpu", 1, true) {
                    @Override
                    protected Weight doUploadMatrix(String name, java.util.List<GgufTensor> parts, int cols) {
                        made[0]++;
                        return super.doUploadMatrix(name, parts, cols);
                    }

                    @Override
                    protected Weight doUploadTable(GgufTensor tensor) {
                        made[0]++;
                        return super.doUploadTable(tensor);
                    }

                    @Override
                    protected Weight doUploadVector(String name, float[] values) {
                        made[0]++;
                        return super.doUploadVector(name, values);
                    }

                    @Override
                    protected void beforeRelease() {
                        released[0]++;
                    }
                }) {
            assertThatThrownBy(() -> Architectures.loadLanguageModel(f, counting, ModelOptions.DEFAULT))
                    .isInstanceOf(InvalidModelException.class)
                    .hasMessageContaining("blk.1.ffn_down.weight");
            assertThat(made[0]).isGreaterThan(10);
            assertThat(released[0]).isEqualTo(made[0]);
        }
    }

    private void assertMatchesReference(SyntheticModel.Spec spec, boolean neox) throws IOException {
        Path p = SyntheticModel.write(dir, spec.arch() + ".gguf", spec);
        try (GgufFile f = GgufFile.open(p);
                LanguageModel model = Architectures.loadLanguageModel(f, backend, ModelOptions.DEFAULT)) {
            assertThat(model.architecture()).isEqualTo(spec.arch());
            double[][] expected = new ReferenceDecoder(f, neox).logits(TOKENS);
            BlockPool pool = new BlockPool(8, 4);
            try (KvStorage kv = model.newKvStorage(pool.capacity(), pool.blockSize())) {
                BlockTable table = new BlockTable(pool);
                table.ensureCapacity(TOKENS.length);
                Logits logits = model.forward(
                        Batch.builder(4)
                                .add(table.blocks(), 0, TOKENS, Batch.Logits.ALL)
                                .build(),
                        kv);
                for (int t = 0; t < TOKENS.length; t++) {
                    float[] row = logits.row(t);
                    double scale = 0;
                    for (double v : expected[t]) {
                        scale = Math.max(scale, Math.abs(v));
                    }
                    for (int i = 0; i < row.length; i++) {
                        assertThat((double) row[i])
                                .as("%s position %d token %d", spec.arch(), t, i)
                                .isCloseTo(expected[t][i], org.assertj.core.data.Offset.offset(1e-4 * scale + 1e-5));
                    }
                }
            }
        }
    }

    static double maxDiff(double[] a, double[] b) {
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]));
        }
        return m;
    }

    static int argmax(double[] v) {
        int best = 0;
        for (int i = 1; i < v.length; i++) {
            if (v[i] > v[best]) {
                best = i;
            }
        }
        return best;
    }

    static double[] logSoftmax(double[] v) {
        double max = v[argmax(v)];
        double sum = 0;
        for (double x : v) {
            sum += Math.exp(x - max);
        }
        double lse = max + Math.log(sum);
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] - lse;
        }
        return out;
    }
}
