package com.llmserve.engine.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.engine.TestData;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The tokenizers on any text, and any ids back to text: SentencePiece (stories260K), WordPiece
 * (all-MiniLM-L6-v2, and bge's from llama.cpp's vocabulary files) and byte-level BPE with merges
 * (gpt-2's and deepseek-llm's, whose pre-tokenizers differ). Every id they make is in the
 * vocabulary, and decoding never fails.
 */
class TokenizerFuzzTests {

    private static final Tokenizer[] TOKENIZERS = {
        load(TestData.model("stories260K.gguf")),
        load(TestData.model("all-MiniLM-L6-v2-q8_0.gguf")),
        vocabulary("bert-bge"),
        vocabulary("gpt-2"),
        vocabulary("deepseek-llm")
    };

    private static Tokenizer vocabulary(String name) {
        return load(TestData.shared().resolve("tokenizers/llama.cpp-vocab").resolve("ggml-vocab-" + name + ".gguf"));
    }

    private static Tokenizer load(Path file) {
        try (GgufFile f = GgufFile.open(file)) {
            return Tokenizer.fromGguf(f.metadata());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "20s")
    void anyTextEncodesToIdsOfTheVocabularyAndAnyIdsDecode(FuzzedDataProvider data) {
        boolean special = data.consumeBoolean();
        int[] ids = data.consumeInts(64);
        String text = data.consumeRemainingAsString();
        for (Tokenizer t : TOKENIZERS) {
            for (int id : t.encode(text, true, special)) {
                assertThat(id).isBetween(0, t.vocabSize() - 1);
            }
            int[] valid = new int[ids.length];
            for (int i = 0; i < ids.length; i++) {
                valid[i] = Math.floorMod(ids[i], t.vocabSize());
            }
            assertThat(t.decode(valid)).isNotNull();
        }
    }
}
