package com.llmserve.engine.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.engine.TestData;
import com.llmserve.engine.fuzz.ModelEdits.Keys;
import com.llmserve.engine.fuzz.ModelEdits.Model;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufFormatException;
import com.llmserve.engine.gguf.GgufValue;
import com.llmserve.engine.gguf.GgufValue.GgufArray;
import com.llmserve.engine.gguf.GgufValueType;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The tokenizer tables a model file carries, edited: llama.cpp's vocabulary test files of the three
 * kinds the service reads (byte-level BPE with its merges: gpt-2 and deepseek-llm, whose
 * pre-tokenizers differ; WordPiece: bge; SentencePiece with added special tokens: phi-3; each cut
 * to its first 4,000 tokens, its special tokens and the merges among them), with
 * tokens, merges, scores and token types shortened, lengthened or changed, special ids, the
 * tokenizer model and pre-tokenizer and the BOS/EOS flags edited ({@link ModelEdits}), written back
 * as a GGUF file. Documented outcomes: the tokenizer is refused ({@code TokenizerException},
 * {@link GgufFormatException}), or it loads and then encodes any text, with and without special
 * tokens, into ids of its vocabulary, and decodes any ids of it.
 */
class TokenizerTableFuzzTests {

    /** Tokens kept of each vocabulary: the tables load in milliseconds, so inputs are many. */
    private static final int KEPT = 4000;

    private static final List<Model> BASES = Stream.of("gpt-2", "deepseek-llm", "bert-bge", "phi-3")
            .map(name -> trimmed(ModelEdits.read(
                    TestData.shared().resolve("tokenizers/llama.cpp-vocab").resolve("ggml-vocab-" + name + ".gguf"))))
            .toList();

    private static final Keys TABLES = new Keys(
            new String[] {"context_length"},
            new String[] {
                "tokenizer.ggml.bos_token_id",
                "tokenizer.ggml.eos_token_id",
                "tokenizer.ggml.eot_token_id",
                "tokenizer.ggml.unknown_token_id",
                "tokenizer.ggml.padding_token_id",
                "tokenizer.ggml.cls_token_id",
                "tokenizer.ggml.seperator_token_id",
                "tokenizer.ggml.mask_token_id"
            },
            new String[] {"rope.freq_base"},
            new String[] {
                "tokenizer.ggml.tokens", "tokenizer.ggml.merges", "tokenizer.ggml.scores", "tokenizer.ggml.token_type"
            },
            new String[] {
                "tokenizer.ggml.add_bos_token", "tokenizer.ggml.add_eos_token", "tokenizer.ggml.add_space_prefix"
            },
            new String[] {"token_embd.weight"});

    /**
     * The vocabulary's first {@value #KEPT} tokens and its special tokens (moved after them, their
     * ids changed to match), with the merges among the kept tokens: a table of the same kind,
     * small enough that loading it is not what the time goes to.
     */
    private static Model trimmed(Model base) {
        Map<String, GgufValue> meta = new LinkedHashMap<>(base.metadata());
        String[] tokens =
                (String[]) ((GgufArray) meta.get("tokenizer.ggml.tokens").value()).values();
        if (tokens.length <= KEPT) {
            return base;
        }
        List<Integer> kept = new ArrayList<>(IntStream.range(0, KEPT).boxed().toList());
        Map<Integer, Integer> moved = new HashMap<>();
        for (String key : List.copyOf(meta.keySet())) {
            if (key.startsWith("tokenizer.ggml.")
                    && key.endsWith("_token_id")
                    && meta.get(key).value() instanceof Number n
                    && n.intValue() >= KEPT
                    && n.intValue() < tokens.length) {
                int id = moved.computeIfAbsent(n.intValue(), old -> {
                    kept.add(old);
                    return kept.size() - 1;
                });
                meta.put(key, new GgufValue(meta.get(key).type(), id));
            }
        }
        for (String key : List.of("tokenizer.ggml.tokens", "tokenizer.ggml.scores", "tokenizer.ggml.token_type")) {
            if (meta.get(key) != null && meta.get(key).value() instanceof GgufArray a) {
                Object values = Array.newInstance(a.values().getClass().getComponentType(), kept.size());
                for (int i = 0; i < kept.size(); i++) {
                    Array.set(values, i, Array.get(a.values(), kept.get(i)));
                }
                meta.put(key, new GgufValue(GgufValueType.ARRAY, new GgufArray(a.elementType(), values)));
            }
        }
        if (meta.get("tokenizer.ggml.merges") != null
                && meta.get("tokenizer.ggml.merges").value() instanceof GgufArray a) {
            Set<String> vocabulary = new HashSet<>();
            kept.forEach(i -> vocabulary.add(tokens[i]));
            String[] merges = Arrays.stream((String[]) a.values())
                    .filter(merge -> {
                        int space = merge.indexOf(' ');
                        return space > 0
                                && vocabulary.contains(merge.substring(0, space))
                                && vocabulary.contains(merge.substring(space + 1))
                                && vocabulary.contains(merge.substring(0, space) + merge.substring(space + 1));
                    })
                    .toArray(String[]::new);
            meta.put(
                    "tokenizer.ggml.merges",
                    new GgufValue(GgufValueType.ARRAY, new GgufArray(a.elementType(), merges)));
        }
        return new Model(meta, base.tensors());
    }

    @FuzzTest(maxDuration = "20s")
    void anyEditedTokenizerTableTokenizesOrIsRefusedAsDocumented(FuzzedDataProvider data) throws IOException {
        Model m = BASES.get(data.consumeInt(0, BASES.size() - 1)).copy();
        long[] budget = {0};
        int edits = data.consumeInt(1, 6);
        for (int i = 0; i < edits && data.remainingBytes() > 0; i++) {
            ModelEdits.edit(data, m, budget, TABLES);
        }
        boolean special = data.consumeBoolean();
        int[] ids = data.consumeInts(32);
        String text = data.consumeRemainingAsString();
        Path file = Files.createTempFile(ModelEdits.TEMP, "fuzz", ".gguf");
        try {
            ModelEdits.write(m, file);
            try (GgufFile f = GgufFile.open(file)) {
                Tokenizer t = ModelEdits.tokenizer(f);
                if (t != null) {
                    for (int id : t.encode(text, true, special)) {
                        assertThat(id).isBetween(0, t.vocabSize() - 1);
                    }
                    for (int i = 0; i < ids.length; i++) {
                        ids[i] = Math.floorMod(ids[i], t.vocabSize());
                    }
                    assertThat(t.decode(ids)).isNotNull();
                }
            } catch (GgufFormatException refused) {
                // a key of another type than the reader expects
            }
        } finally {
            Files.delete(file);
        }
    }
}
