package com.llmserve.engine.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.engine.TestData;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The two tokenizers (SentencePiece of stories260K, WordPiece of all-MiniLM-L6-v2) on any text,
 * and any ids back to text: every id they make is in the vocabulary, and decoding never fails.
 */
class TokenizerFuzzTests {

    private static final Tokenizer SENTENCE_PIECE = load("stories260K.gguf");
    private static final Tokenizer WORD_PIECE = load("all-MiniLM-L6-v2-q8_0.gguf");

    private static Tokenizer load(String model) {
        try (GgufFile f = GgufFile.open(TestData.model(model))) {
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
        for (Tokenizer t : new Tokenizer[] {SENTENCE_PIECE, WORD_PIECE}) {
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
