package com.llmserve.engine.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.engine.backend.UnsupportedTensorTypeException;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.fuzz.ModelEdits.Keys;
import com.llmserve.engine.fuzz.ModelEdits.Model;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufFormatException;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.EmbeddingModel;
import com.llmserve.engine.model.InvalidModelException;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.model.UnsupportedArchitectureException;
import com.llmserve.engine.tokenizer.TokenizerException;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * Embedding-model loading past the GGUF container: all-MiniLM-L6-v2 or bge-small-en-v1.5 (BERT,
 * Q8_0, a WordPiece vocabulary; mean and CLS pooling) with its metadata and tensor table edited as {@link ModelEdits} does for the
 * decoders, with the keys and tensors the BERT loader and the WordPiece tokenizer read (widths,
 * head and block counts, context length, pooling, causal flag, layer-norm epsilon; the vocabulary,
 * its token types and the [CLS], [SEP], [UNK], [PAD] and [MASK] ids; the embedding, position and
 * token-type tables, the norms and the block tensors), written back as a GGUF file; its tokenizer
 * loaded and used once each way, a chat template the edits set rendered, and its model loaded on
 * the CPU and asked for the vectors of two short inputs in one call. Documented outcomes: it
 * loads and embeds (a vector of {@link EmbeddingModel#dimensions()} floats per input), or the file is
 * refused with {@link GgufFormatException}, {@link TokenizerException},
 * {@link InvalidModelException}, {@link UnsupportedArchitectureException} or
 * {@link UnsupportedTensorTypeException}. Its own target, not a fourth base of
 * {@link ModelLoadingFuzzTests}: the files are 25 and 37 MB, written for every input, and would slow
 * the decoders' target to a crawl.
 */
class EmbeddingModelLoadingFuzzTests {

    /** MiniLM (mean pooling) and BGE (the CLS row), both BERT with a WordPiece vocabulary. */
    private static final List<Model> BASES = Stream.of("all-MiniLM-L6-v2-q8_0.gguf", "bge-small-en-v1.5-q8_0.gguf")
            .map(ModelEdits::read)
            .toList();

    private static final CpuBackend BACKEND = new CpuBackend(1);
    /** Batches of two rows; the scratch holds the context's rows anyway. */
    private static final ModelOptions OPTIONS = new ModelOptions(2, 0);

    /** [CLS] a b [SEP] in the two models' vocabulary (the same ids), and one token alone. */
    private static final List<int[]> INPUTS = List.of(new int[] {101, 2320, 2588, 102}, new int[] {0});

    private static final Keys BERT = new Keys(
            new String[] {
                "block_count",
                "embedding_length",
                "feed_forward_length",
                "attention.head_count",
                "attention.head_count_kv",
                "context_length",
                "pooling_type"
            },
            new String[] {
                "tokenizer.ggml.cls_token_id",
                "tokenizer.ggml.seperator_token_id",
                "tokenizer.ggml.unknown_token_id",
                "tokenizer.ggml.padding_token_id",
                "tokenizer.ggml.mask_token_id",
                "tokenizer.ggml.bos_token_id",
                "tokenizer.ggml.eos_token_id"
            },
            new String[] {"attention.layer_norm_epsilon"},
            new String[] {"tokenizer.ggml.tokens", "tokenizer.ggml.token_type"},
            new String[] {"tokenizer.ggml.add_bos_token", "tokenizer.ggml.add_eos_token", "bert.attention.causal"},
            new String[] {
                "token_embd.weight",
                "position_embd.weight",
                "token_types.weight",
                "token_embd_norm.weight",
                "token_embd_norm.bias",
                "blk.%d.attn_q.weight",
                "blk.%d.attn_k.bias",
                "blk.%d.attn_v.weight",
                "blk.%d.attn_output.weight",
                "blk.%d.attn_output_norm.bias",
                "blk.%d.ffn_up.weight",
                "blk.%d.ffn_down.bias",
                "blk.%d.layer_output_norm.weight"
            });

    @FuzzTest(maxDuration = "20s")
    void anyEditedEmbeddingModelLoadsAndEmbedsOrIsRefusedAsDocumented(FuzzedDataProvider data) throws IOException {
        Model m = BASES.get(data.consumeInt(0, BASES.size() - 1)).copy();
        long[] budget = {ModelEdits.DATA_BUDGET};
        int edits = data.consumeInt(0, 8);
        for (int i = 0; i < edits && data.remainingBytes() > 0; i++) {
            ModelEdits.edit(data, m, budget, BERT);
        }
        ModelEdits.chatTemplate(data, m);
        ModelEdits.loadEdited(m, f -> {
            try (EmbeddingModel model = Architectures.loadEmbeddingModel(f, BACKEND, OPTIONS)) {
                embed(model, f);
            }
        });
    }

    /** The inputs, cut to the context and taken into the token table's rows, embedded in one call. */
    private static void embed(EmbeddingModel model, GgufFile f) {
        long vocab = f.tensor("token_embd.weight").dim(1); // checked by the loader
        List<int[]> inputs = INPUTS.stream()
                .map(in -> Arrays.stream(in)
                        .limit(model.contextLength())
                        .map(t -> (int) (t % vocab))
                        .toArray())
                .toList();
        float[][] vectors = model.embed(inputs);
        assertThat(vectors.length).isEqualTo(inputs.size());
        for (float[] v : vectors) {
            assertThat(v).hasSize(model.dimensions());
        }
    }
}
