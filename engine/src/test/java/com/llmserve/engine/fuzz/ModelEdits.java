package com.llmserve.engine.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.UnsupportedTensorTypeException;
import com.llmserve.engine.chat.ChatMessage;
import com.llmserve.engine.chat.ChatTemplate;
import com.llmserve.engine.chat.ChatTemplateException;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufBuilder;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufFormatException;
import com.llmserve.engine.gguf.GgufTensor;
import com.llmserve.engine.gguf.GgufValue;
import com.llmserve.engine.gguf.GgufValue.GgufArray;
import com.llmserve.engine.gguf.GgufValueType;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.InvalidModelException;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The edits the model-loading fuzz targets make to a small valid model: its metadata
 * (hyper-parameters, rope and norm constants, the architecture, the tokenizer's arrays and ids, a
 * chat template) and its tensor table (shapes, types, names), and the GGUF file written back. Each
 * target names the keys and tensors its loader reads in a {@link Keys}; the edits consume the
 * input in the same way whatever the keys, so the kept inputs of a target keep their meaning as
 * long as its keys do.
 */
final class ModelEdits {

    /** A tensor of the table, its data copied out of the base file. */
    record Tensor(String name, GgmlType type, long[] shape, byte[] data) {}

    /** A base model as metadata in file order and tensors in file order. */
    record Model(Map<String, GgufValue> metadata, List<Tensor> tensors) {

        Model copy() {
            return new Model(new LinkedHashMap<>(metadata), new ArrayList<>(tensors));
        }

        String architecture() {
            GgufValue v = metadata.get("general.architecture");
            return v != null && v.value() instanceof String s ? s : "";
        }
    }

    /**
     * What one target edits: integer keys under the architecture's prefix, global integer keys,
     * float keys under the prefix, the tokenizer's arrays, boolean keys (full names) and the tensor
     * names its loader looks for ({@code %d} a layer).
     */
    record Keys(
            String[] intKeys,
            String[] globalIntKeys,
            String[] floatKeys,
            String[] tokenizerArrays,
            String[] boolKeys,
            String[] tensorNames) {}

    /** Memory, where Linux has it: a file is written and mapped for every input. */
    static final Path TEMP = Files.isDirectory(Path.of("/dev/shm"))
            ? Path.of("/dev/shm")
            : Path.of(System.getProperty("java.io.tmpdir"));
    /** New tensor data of one input at most; a larger tensor is written without its data (refused by the parser). */
    static final long DATA_BUDGET = 16 << 20;

    /** GgufBuilder's alignment (the files carry no {@code general.alignment}). */
    private static final int ALIGNMENT = 32;

    private static final String[] ARCHITECTURES = Stream.concat(
                    Architectures.languageModels().stream(), Stream.of("bert", "gpt2"))
            .toArray(String[]::new);
    private static final String[] ROPE_SCALINGS = {"none", "linear", "yarn", "longrope", "dynamic"};
    private static final String[] TOKENIZER_MODELS = {"llama", "gpt2", "bert", "t5"};
    private static final String[] PRE_TOKENIZERS = {"default", "llama3", "qwen2", "gpt-2", "smollm"};

    private static final GgufValueType[] INT_TYPES = {
        GgufValueType.UINT32, GgufValueType.INT32, GgufValueType.UINT64, GgufValueType.INT64, GgufValueType.UINT16
    };

    static final String CHAT_TEMPLATE = "tokenizer.chat_template";

    /**
     * Templates a file may carry: ChatML, one that raises on a conversation without an assistant
     * turn (as Llama 2's does on roles out of order), one that calls what Jinja lacks, one that
     * does not parse, and one using the tokens' texts.
     */
    private static final String[] CHAT_TEMPLATES = {
        "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
                + "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}",
        "{% if messages|length < 2 %}{{ raise_exception('Conversation roles must alternate user/assistant') }}"
                + "{% endif %}{{ bos_token }}{% for m in messages %}[INST] {{ m.content }} [/INST]{% endfor %}",
        "{{ bos_token }}{{ messages[0].content.no_such_method() }}{{ eos_token }}",
        "{% for m in messages %}{{ m.content }",
        "{{ bos_token }}{% for m in messages %}{{ m.role | upper }}: {{ m.content | trim }}{{ eos_token }}{% endfor %}"
    };

    private ModelEdits() {}

    /**
     * The last edit of an input, after the others: when bytes are left and the next says so,
     * {@code tokenizer.chat_template} set to one of {@link #CHAT_TEMPLATES} or to any text. An
     * input kept before this edit existed ends before it or leaves it a byte that sets nothing
     * half the time; its other edits keep their meaning.
     */
    static void chatTemplate(FuzzedDataProvider data, Model m) {
        if (data.remainingBytes() == 0 || !data.consumeBoolean()) {
            return;
        }
        String source =
                data.consumeBoolean() ? pick(data, CHAT_TEMPLATES) : data.consumeString(data.consumeInt(0, 400));
        m.metadata().put(CHAT_TEMPLATE, new GgufValue(GgufValueType.STRING, source));
    }

    /**
     * The file's chat template as the service takes it ({@link ChatTemplate#fromGguf}) and one
     * conversation of one message rendered: text, or {@link ChatTemplateException}.
     */
    static void renderChatTemplate(GgufFile f, Tokenizer tokenizer) {
        if (f.metadata().findString(CHAT_TEMPLATE).isEmpty()) {
            return; // the ChatML fallback, fuzzed nowhere else than by its use
        }
        try {
            ChatTemplate template =
                    ChatTemplate.fromGguf(f.metadata(), tokenizer).withRenderTimeLimit(Duration.ofMillis(200));
            String text = template.render(List.of(ChatMessage.user("Once upon a time")), true);
            if (text == null) {
                throw new AssertionError("a chat template rendered null");
            }
        } catch (ChatTemplateException refused) {
            // INVALID_TEMPLATE, RENDER_FAILED or RAISED_BY_TEMPLATE: the documented outcomes
        }
    }

    static void edit(FuzzedDataProvider data, Model m, long[] budget, Keys keys) {
        Map<String, GgufValue> meta = m.metadata();
        String prefix = m.architecture();
        int kind = data.consumeInt(0, 10);
        if ((kind == 6 && meta.isEmpty()) || (kind >= 8 && m.tensors().isEmpty())) {
            return;
        }
        switch (kind) {
            case 0 -> {
                String key = prefix + "." + pick(data, keys.intKeys());
                meta.put(key, integer(data, meta.get(key)));
            }
            case 1 -> {
                String key = pick(data, keys.globalIntKeys());
                meta.put(key, integer(data, meta.get(key)));
            }
            case 2 -> {
                String key = prefix + "." + pick(data, keys.floatKeys());
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
            case 5 -> meta.put(pick(data, keys.boolKeys()), new GgufValue(GgufValueType.BOOL, data.consumeBoolean()));
            case 6 -> {
                // a key dropped or given a value of another type
                List<String> present = new ArrayList<>(meta.keySet());
                String key = present.get(data.consumeInt(0, present.size() - 1));
                if (data.consumeBoolean()) {
                    meta.remove(key);
                } else {
                    meta.put(key, otherType(data));
                }
            }
            case 7 -> tokenizerArray(data, meta, keys);
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
                    String name = pick(data, keys.tensorNames()).formatted(data.consumeInt(0, 4));
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
    private static void tokenizerArray(FuzzedDataProvider data, Map<String, GgufValue> meta, Keys keys) {
        String key = pick(data, keys.tokenizerArrays());
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

    static Model read(String name) {
        return read(TestData.model(name));
    }

    static Model read(Path file) {
        try (GgufFile f = GgufFile.open(file)) {
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
    /** What a target does with a file that opened: load the model and use it. */
    @FunctionalInterface
    interface Load {
        void run(GgufFile f);
    }

    /**
     * Writes {@code m} to a temporary file, opens it, exercises its tokenizer and chat template, then
     * {@code load}s it; the loaders' documented refusals of a file that does not make sense are
     * answers, anything else escapes and is a finding.
     */
    static void loadEdited(Model m, Load load) throws IOException {
        Path file = Files.createTempFile(TEMP, "fuzz", ".gguf");
        try {
            write(m, file);
            try (GgufFile f = GgufFile.open(file)) {
                Tokenizer tokenizer = tokenizer(f);
                if (tokenizer != null) {
                    renderChatTemplate(f, tokenizer);
                }
                try {
                    load.run(f);
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

    /** The tokenizer of the file, used once each way; {@code null} after its documented refusal. */
    static Tokenizer tokenizer(GgufFile f) {
        try {
            Tokenizer t = Tokenizer.fromGguf(f.metadata());
            int[] ids = t.encode("Once upon a time", true, false);
            for (int id : ids) {
                assertThat(id).isBetween(0, t.vocabSize() - 1);
            }
            assertThat(t.decode(ids)).isNotNull();
            return t;
        } catch (TokenizerException | GgufFormatException refused) {
            // the documented refusals of a vocabulary
            return null;
        }
    }

    static void write(Model m, Path file) throws IOException {
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
