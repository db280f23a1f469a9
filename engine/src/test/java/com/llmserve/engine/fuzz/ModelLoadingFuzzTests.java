package com.llmserve.engine.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.UnsupportedTensorTypeException;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufBuilder;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufFormatException;
import com.llmserve.engine.gguf.GgufTensor;
import com.llmserve.engine.gguf.GgufValue;
import com.llmserve.engine.gguf.GgufValue.GgufArray;
import com.llmserve.engine.gguf.GgufValueType;
import com.llmserve.engine.kv.BlockPool;
import com.llmserve.engine.kv.BlockTable;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.InvalidModelException;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.Logits;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.model.UnsupportedArchitectureException;
import com.llmserve.engine.tokenizer.Tokenizer;
import com.llmserve.engine.tokenizer.TokenizerException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Model loading past the GGUF container: a small valid model (stories260K's llama, the tiny
 * qwen3moe or gemma3) with its metadata and tensor table edited as the input says (hyper-parameters,
 * rope and norm constants, the architecture, the tokenizer's arrays, tensor shapes, types and
 * names), written back as a well-formed GGUF file, then its tokenizer and its model loaded on the
 * CPU and one step of three tokens run. Documented outcomes: it loads and steps, or the file is
 * refused with {@link GgufFormatException} (missing or mistyped keys and tensors, data past the
 * end), {@link TokenizerException}, {@link InvalidModelException} (hyper-parameters or shapes
 * that do not fit), {@link UnsupportedArchitectureException} or
 * {@link UnsupportedTensorTypeException}. Nothing else: no index, null or arithmetic error, no
 * argument error of the backend, no allocation sized by a metadata value alone.
 */
class ModelLoadingFuzzTests {

    /** A tensor of the table, its data copied out of the base file. */
    private record Tensor(String name, GgmlType type, long[] shape, byte[] data) {}

    /** A base model as metadata in file order and tensors in file order. */
    private record Model(Map<String, GgufValue> metadata, List<Tensor> tensors) {

        Model copy() {
            return new Model(new LinkedHashMap<>(metadata), new ArrayList<>(tensors));
        }

        String architecture() {
            GgufValue v = metadata.get("general.architecture");
            return v != null && v.value() instanceof String s ? s : "";
        }
    }

    private static final List<Model> BASES = Stream.of(
                    "stories260K.gguf", "tiny-qwen3moe-Q8_0.gguf", "tiny-gemma3-Q8_0.gguf")
            .map(ModelLoadingFuzzTests::read)
            .toList();

    private static final CpuBackend BACKEND = new CpuBackend(1);
    /** Batches of two rows: the three tokens run in two chunks. */
    private static final ModelOptions OPTIONS = new ModelOptions(2, 0);

    private static final int[] TOKENS = {1, 17, 42};
    /** GgufBuilder's alignment (the files carry no {@code general.alignment}). */
    private static final int ALIGNMENT = 32;
    /** Memory, where Linux has it: a file is written and mapped for every input. */
    private static final Path TEMP = Files.isDirectory(Path.of("/dev/shm"))
            ? Path.of("/dev/shm")
            : Path.of(System.getProperty("java.io.tmpdir"));
    /** New tensor data of one input at most; a larger tensor is written without its data (refused by the parser). */
    private static final long DATA_BUDGET = 16 << 20;

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
    private static final String[] ARCHITECTURES = Stream.concat(
                    Architectures.languageModels().stream(), Stream.of("bert", "gpt2"))
            .toArray(String[]::new);
    private static final String[] ROPE_SCALINGS = {"none", "linear", "yarn", "longrope", "dynamic"};
    private static final String[] TOKENIZER_MODELS = {"llama", "gpt2", "bert", "t5"};
    private static final String[] PRE_TOKENIZERS = {"default", "llama3", "qwen2", "gpt-2", "smollm"};
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

    private static final GgufValueType[] INT_TYPES = {
        GgufValueType.UINT32, GgufValueType.INT32, GgufValueType.UINT64, GgufValueType.INT64, GgufValueType.UINT16
    };

    @FuzzTest(maxDuration = "20s")
    void anyEditedModelLoadsAndStepsOrIsRefusedAsDocumented(FuzzedDataProvider data) throws IOException {
        Model m = BASES.get(data.consumeInt(0, BASES.size() - 1)).copy();
        long[] budget = {DATA_BUDGET};
        int edits = data.consumeInt(0, 8);
        for (int i = 0; i < edits && data.remainingBytes() > 0; i++) {
            edit(data, m, budget);
        }
        Path file = Files.createTempFile(TEMP, "fuzz", ".gguf");
        try {
            write(m, file);
            try (GgufFile f = GgufFile.open(file)) {
                tokenizer(f);
                try (LanguageModel model = Architectures.loadLanguageModel(f, BACKEND, OPTIONS)) {
                    step(model);
                } catch (InvalidModelException
                        | UnsupportedArchitectureException
                        | UnsupportedTensorTypeException
                        | GgufFormatException refused) {
                    // the documented refusals of a model that does not make sense
                }
            } catch (GgufFormatException refused) {
                // a tensor's data past the end of the file, a row length that is no whole number of blocks
            }
        } finally {
            Files.delete(file);
        }
    }

    /** The tokenizer of the file, used once each way, or its documented refusal. */
    private static void tokenizer(GgufFile f) {
        try {
            Tokenizer t = Tokenizer.fromGguf(f.metadata());
            int[] ids = t.encode("Once upon a time", true, false);
            for (int id : ids) {
                assertThat(id).isBetween(0, t.vocabSize() - 1);
            }
            assertThat(t.decode(ids)).isNotNull();
        } catch (TokenizerException | GgufFormatException refused) {
            // the documented refusals of a vocabulary
        }
    }

    /** One step of three tokens, in two chunks, with the last row's logits. */
    private static void step(LanguageModel model) {
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

    // ---------------------------------------------------------------- edits

    private static void edit(FuzzedDataProvider data, Model m, long[] budget) {
        Map<String, GgufValue> meta = m.metadata();
        String prefix = m.architecture();
        int kind = data.consumeInt(0, 10);
        if ((kind == 6 && meta.isEmpty()) || (kind >= 8 && m.tensors().isEmpty())) {
            return;
        }
        switch (kind) {
            case 0 -> {
                String key = prefix + "." + pick(data, INT_KEYS);
                meta.put(key, integer(data, meta.get(key)));
            }
            case 1 -> {
                String key = pick(data, GLOBAL_INT_KEYS);
                meta.put(key, integer(data, meta.get(key)));
            }
            case 2 -> {
                String key = prefix + "." + pick(data, FLOAT_KEYS);
                double original =
                        meta.get(key) != null && meta.get(key).value() instanceof Number n ? n.doubleValue() : 1.0;
                float value =
                        switch (data.consumeInt(0, 2)) {
                            case 0 -> (float) (original * data.consumeInt(-4, 4));
                            case 1 -> (float) (original / (1 << data.consumeInt(0, 30)));
                            default -> data.consumeFloat();
                        };
                meta.put(
                        key,
                        data.consumeBoolean()
                                ? new GgufValue(GgufValueType.FLOAT32, value)
                                : new GgufValue(GgufValueType.FLOAT64, (double) value));
            }
            case 3 -> architecture(data, m);
            case 4 -> {
                int which = data.consumeInt(0, 2);
                String key =
                        switch (which) {
                            case 0 -> prefix + ".rope.scaling.type";
                            case 1 -> "tokenizer.ggml.model";
                            default -> "tokenizer.ggml.pre";
                        };
                String[] values =
                        switch (which) {
                            case 0 -> ROPE_SCALINGS;
                            case 1 -> TOKENIZER_MODELS;
                            default -> PRE_TOKENIZERS;
                        };
                String value = data.consumeBoolean() ? pick(data, values) : data.consumeString(12);
                meta.put(key, new GgufValue(GgufValueType.STRING, value));
            }
            case 5 -> meta.put(pick(data, BOOL_KEYS), new GgufValue(GgufValueType.BOOL, data.consumeBoolean()));
            case 6 -> {
                // a key dropped or given a value of another type
                List<String> keys = new ArrayList<>(meta.keySet());
                String key = keys.get(data.consumeInt(0, keys.size() - 1));
                if (data.consumeBoolean()) {
                    meta.remove(key);
                } else {
                    meta.put(key, otherType(data));
                }
            }
            case 7 -> tokenizerArray(data, meta);
            case 8 -> shape(data, m, budget);
            case 9 -> {
                int i = data.consumeInt(0, m.tensors().size() - 1);
                Tensor t = m.tensors().get(i);
                GgmlType type = GgmlType.values()[data.consumeInt(0, GgmlType.values().length - 1)];
                m.tensors().set(i, resized(t, type, t.shape(), budget));
            }
            default -> {
                // a tensor dropped, or renamed to one a loader looks for
                int i = data.consumeInt(0, m.tensors().size() - 1);
                Tensor t = m.tensors().get(i);
                if (data.consumeBoolean()) {
                    m.tensors().remove(i);
                } else {
                    String name = pick(data, TENSOR_NAMES).formatted(data.consumeInt(0, 4));
                    if (m.tensors().stream().noneMatch(o -> o.name().equals(name))) {
                        m.tensors().set(i, new Tensor(name, t.type(), t.shape(), t.data()));
                    }
                }
            }
        }
    }

    /** Another architecture, with the hyper-parameters' keys renamed to its prefix or left as they are. */
    private static void architecture(FuzzedDataProvider data, Model m) {
        String old = m.architecture();
        String name = data.consumeBoolean() ? pick(data, ARCHITECTURES) : data.consumeString(10);
        if (!old.isEmpty() && data.consumeBoolean()) {
            Map<String, GgufValue> renamed = new LinkedHashMap<>();
            m.metadata()
                    .forEach((k, v) -> renamed.put(k.startsWith(old + ".") ? name + k.substring(old.length()) : k, v));
            m.metadata().clear();
            m.metadata().putAll(renamed);
        }
        m.metadata().put("general.architecture", new GgufValue(GgufValueType.STRING, name));
    }

    /** An integer near, a multiple of or far from the one the file has. */
    private static GgufValue integer(FuzzedDataProvider data, GgufValue original) {
        long o = original != null && original.value() instanceof Long l ? l : 0;
        long value =
                switch (data.consumeInt(0, 3)) {
                    case 0 -> o + data.consumeInt(-3, 3);
                    case 1 -> o * data.consumeInt(-2, 8);
                    case 2 -> data.consumeInt();
                    default -> data.consumeLong();
                };
        return new GgufValue(pick(data, INT_TYPES), value);
    }

    private static GgufValue otherType(FuzzedDataProvider data) {
        return switch (data.consumeInt(0, 4)) {
            case 0 -> new GgufValue(GgufValueType.STRING, data.consumeString(8));
            case 1 -> new GgufValue(GgufValueType.FLOAT32, data.consumeFloat());
            case 2 -> new GgufValue(GgufValueType.BOOL, data.consumeBoolean());
            case 3 -> new GgufValue(GgufValueType.UINT64, -1L);
            default ->
                new GgufValue(
                        GgufValueType.ARRAY,
                        new GgufArray(GgufValueType.INT32, data.consumeInts(data.consumeInt(0, 8))));
        };
    }

    /** A tokenizer array made shorter or longer (its elements repeated), or one element changed. */
    private static void tokenizerArray(FuzzedDataProvider data, Map<String, GgufValue> meta) {
        String key = pick(data, TOKENIZER_ARRAYS);
        if (!(meta.get(key) != null && meta.get(key).value() instanceof GgufArray a) || a.length() == 0) {
            return;
        }
        Object values = a.values();
        int n = a.length();
        Object changed;
        if (data.consumeBoolean()) {
            int length = data.consumeInt(0, n + 64);
            changed = Array.newInstance(values.getClass().getComponentType(), length);
            for (int i = 0; i < length; i++) {
                Array.set(changed, i, Array.get(values, i % n));
            }
        } else {
            changed = copyOf(values, n);
            int i = data.consumeInt(0, n - 1);
            switch (changed) {
                case String[] s -> s[i] = data.consumeString(16);
                case float[] f -> f[i] = data.consumeFloat();
                case int[] t -> t[i] = data.consumeInt(-1, 7);
                default -> {
                    return;
                }
            }
        }
        meta.put(key, new GgufValue(GgufValueType.ARRAY, new GgufArray(a.elementType(), changed)));
    }

    private static Object copyOf(Object array, int n) {
        Object copy = Array.newInstance(array.getClass().getComponentType(), n);
        System.arraycopy(array, 0, copy, 0, n);
        return copy;
    }

    /** A tensor with one dimension changed, a dimension more or fewer, or its dimensions reversed. */
    private static void shape(FuzzedDataProvider data, Model m, long[] budget) {
        int i = data.consumeInt(0, m.tensors().size() - 1);
        Tensor t = m.tensors().get(i);
        long[] shape = t.shape().clone();
        switch (data.consumeInt(0, 3)) {
            case 0 -> {
                int d = data.consumeInt(0, shape.length - 1);
                shape[d] = switch (data.consumeInt(0, 3)) {
                    case 0 -> shape[d] + data.consumeInt(-2, 2);
                    case 1 -> data.consumeBoolean() ? shape[d] * 2 : shape[d] / 2;
                    case 2 -> data.consumeLong(0, 1 << 20);
                    default -> data.consumeLong();
                };
            }
            case 1 -> shape = Arrays.copyOf(shape, Math.min(4, shape.length + 1));
            case 2 -> shape = shape.length > 1 ? Arrays.copyOf(shape, shape.length - 1) : shape;
            default -> {
                for (int a = 0, b = shape.length - 1; a < b; a++, b--) {
                    long s = shape[a];
                    shape[a] = shape[b];
                    shape[b] = s;
                }
            }
        }
        for (int d = 0; d < shape.length; d++) {
            shape[d] = shape[d] == 0 && d >= t.shape().length ? 1 : shape[d];
        }
        m.tensors().set(i, resized(t, t.type(), shape, budget));
    }

    /**
     * {@code t} as {@code type} and {@code shape}, its data cut or zero-padded to the new size
     * within the budget; otherwise its old data, which the parser then finds too short or too long.
     */
    private static Tensor resized(Tensor t, GgmlType type, long[] shape, long[] budget) {
        long elements = 1;
        try {
            for (long d : shape) {
                elements = Math.multiplyExact(elements, d);
            }
            if (elements >= 0 && shape[0] >= 0 && shape[0] % type.blockSize() == 0) {
                long bytes = type.byteSize(elements);
                if (bytes <= t.data().length || bytes - t.data().length <= budget[0]) {
                    budget[0] -= Math.max(0, bytes - t.data().length);
                    return new Tensor(t.name(), type, shape, Arrays.copyOf(t.data(), (int) bytes));
                }
            }
        } catch (ArithmeticException tooLarge) {
            // the old data
        }
        return new Tensor(t.name(), type, shape, t.data());
    }

    private static <T> T pick(FuzzedDataProvider data, T[] values) {
        return values[data.consumeInt(0, values.length - 1)];
    }

    // ---------------------------------------------------------------- files

    private static Model read(String name) {
        try (GgufFile f = GgufFile.open(TestData.model(name))) {
            Map<String, GgufValue> metadata = new LinkedHashMap<>();
            for (String key : f.metadata().keys()) {
                if (!key.equals("general.alignment")) {
                    metadata.put(key, f.metadata().find(key).orElseThrow());
                }
            }
            List<Tensor> tensors = new ArrayList<>();
            for (GgufTensor t : f.tensors()) {
                tensors.add(new Tensor(t.name(), t.type(), t.shape(), t.data().toArray(ValueLayout.JAVA_BYTE)));
            }
            return new Model(metadata, tensors);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file of {@code m}: GgufBuilder's header, then each tensor's data at its aligned offset. */
    private static void write(Model m, Path file) throws IOException {
        GgufBuilder header = new GgufBuilder();
        m.metadata().forEach(header::kvValue);
        long offset = 0;
        long[] offsets = new long[m.tensors().size()];
        for (int i = 0; i < offsets.length; i++) {
            Tensor t = m.tensors().get(i);
            offsets[i] = offset;
            header.tensorInfo(t.name(), t.shape().length, t.shape(), t.type().id(), offset, null, offset);
            offset = (offset + t.data().length + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
        }
        byte[] head = header.build();
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            out.write(ByteBuffer.wrap(head));
            for (int i = 0; i < offsets.length; i++) {
                out.write(ByteBuffer.wrap(m.tensors().get(i).data()), head.length + offsets[i]);
            }
        }
    }
}
