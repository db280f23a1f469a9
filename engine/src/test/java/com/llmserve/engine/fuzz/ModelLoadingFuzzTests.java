package com.llmserve.engine.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.UnsupportedTensorTypeException;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.fuzz.ModelEdits.Keys;
import com.llmserve.engine.fuzz.ModelEdits.Model;
import com.llmserve.engine.gguf.GgufFormatException;
import com.llmserve.engine.kv.BlockPool;
import com.llmserve.engine.kv.BlockTable;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.InvalidModelException;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.Logits;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.model.UnsupportedArchitectureException;
import com.llmserve.engine.tokenizer.TokenizerException;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * Model loading past the GGUF container: a small valid model (stories260K's llama, the tiny
 * qwen3moe or gemma3) with its metadata and tensor table edited as the input says (hyper-parameters,
 * rope and norm constants, the architecture, the tokenizer's arrays, tensor shapes, types and
 * names; {@link ModelEdits}), written back as a well-formed GGUF file, then its tokenizer and its
 * model loaded on the CPU and one step of three tokens run; a chat template the edits set is
 * rendered ({@link ModelEdits#renderChatTemplate}). Documented outcomes: it loads and steps, or the file is
 * refused with {@link GgufFormatException} (missing or mistyped keys and tensors, data past the
 * end), {@link TokenizerException}, {@link InvalidModelException} (hyper-parameters or shapes
 * that do not fit), {@link UnsupportedArchitectureException} or
 * {@link UnsupportedTensorTypeException}. Nothing else: no index, null or arithmetic error, no
 * argument error of the backend, no allocation sized by a metadata value alone.
 */
class ModelLoadingFuzzTests {

    static final List<Model> BASES = Stream.of("stories260K.gguf", "tiny-qwen3moe-Q8_0.gguf", "tiny-gemma3-Q8_0.gguf")
            .map(ModelEdits::read)
            .toList();

    private static final CpuBackend BACKEND = new CpuBackend(1);
    /** Batches of two rows: the three tokens run in two chunks. */
    static final ModelOptions OPTIONS = new ModelOptions(2, 0);

    private static final int[] TOKENS = {1, 17, 42};

    private static final String[] INT_KEYS = {
        "block_count",
        "embedding_length",
        "feed_forward_length",
        "attention.head_count",
        "attention.head_count_kv",
        "attention.key_length",
        "attention.value_length",
        "context_length",
        "rope.dimension_count",
        "rope.scaling.original_context_length",
        "expert_count",
        "expert_used_count",
        "expert_feed_forward_length",
        "attention.sliding_window",
        "attention.sliding_window_pattern"
    };
    private static final String[] GLOBAL_INT_KEYS = {
        "tokenizer.ggml.bos_token_id",
        "tokenizer.ggml.eos_token_id",
        "tokenizer.ggml.eot_token_id",
        "tokenizer.ggml.unknown_token_id",
        "tokenizer.ggml.padding_token_id"
    };
    private static final String[] FLOAT_KEYS = {
        "rope.freq_base",
        "attention.layer_norm_rms_epsilon",
        "rope.scaling.factor",
        "rope.scale_linear",
        "rope.scaling.attn_factor",
        "expert_weights_scale",
        "final_logit_softcapping",
        "rope.freq_base_swa"
    };
    private static final String[] TOKENIZER_ARRAYS = {
        "tokenizer.ggml.tokens", "tokenizer.ggml.scores", "tokenizer.ggml.token_type", "tokenizer.ggml.merges"
    };
    private static final String[] BOOL_KEYS = {
        "tokenizer.ggml.add_bos_token", "tokenizer.ggml.add_eos_token", "tokenizer.ggml.add_space_prefix"
    };
    /** Names the loaders look for, {@code %d} a layer. */
    private static final String[] TENSOR_NAMES = {
        "output.weight",
        "rope_freqs.weight",
        "rope_factors_long.weight",
        "rope_factors_short.weight",
        "blk.%d.attn_qkv.weight",
        "blk.%d.attn_q.bias",
        "blk.%d.attn_k.bias",
        "blk.%d.attn_v.bias",
        "blk.%d.attn_q_norm.weight",
        "blk.%d.attn_k_norm.weight",
        "blk.%d.post_attention_norm.weight",
        "blk.%d.post_ffw_norm.weight",
        "blk.%d.ffn_gate.weight",
        "blk.%d.ffn_up.weight",
        "blk.%d.ffn_up_shexp.weight",
        "blk.%d.ffn_gate_inp.weight",
        "blk.%d.ffn_gate_exps.weight"
    };

    static final Keys DECODER =
            new Keys(INT_KEYS, GLOBAL_INT_KEYS, FLOAT_KEYS, TOKENIZER_ARRAYS, BOOL_KEYS, TENSOR_NAMES);

    @FuzzTest(maxDuration = "20s")
    void anyEditedModelLoadsAndStepsOrIsRefusedAsDocumented(FuzzedDataProvider data) throws IOException {
        Model m = BASES.get(data.consumeInt(0, BASES.size() - 1)).copy();
        long[] budget = {ModelEdits.DATA_BUDGET};
        int edits = data.consumeInt(0, 8);
        for (int i = 0; i < edits && data.remainingBytes() > 0; i++) {
            ModelEdits.edit(data, m, budget, DECODER);
        }
        ModelEdits.chatTemplate(data, m);
        ModelEdits.loadEdited(m, f -> {
            try (LanguageModel model = Architectures.loadLanguageModel(f, BACKEND, OPTIONS)) {
                step(model);
            }
        });
    }

    /** One step of three tokens, in two chunks, with the last row's logits. */
    static void step(LanguageModel model) {
        int vocab = model.vocabSize();
        int[] tokens = Arrays.stream(TOKENS).map(t -> t % vocab).toArray();
        BlockPool pool = new BlockPool(2, 4);
        try (KvStorage kv = model.newKvStorage(pool.capacity(), pool.blockSize())) {
            BlockTable table = new BlockTable(pool);
            table.ensureCapacity(tokens.length);
            Logits logits = model.forward(
                    Batch.builder(pool.blockSize())
                            .add(table.blocks(), 0, tokens, Batch.Logits.LAST)
                            .build(),
                    kv);
            assertThat(logits.row(0)).hasSize(vocab);
            table.release();
        }
    }
}
