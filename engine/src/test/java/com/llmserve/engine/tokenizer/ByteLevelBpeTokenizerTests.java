package com.llmserve.engine.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Byte-level BPE vocabularies from {@code shared/tokenizers/llama.cpp-vocab}. */
class ByteLevelBpeTokenizerTests {

    private static Tokenizer vocab(String name) {
        return VocabFixtures.load(VocabFixtures.vocabDir().resolve("ggml-vocab-" + name + ".gguf"));
    }

    @Test
    void gpt2EncodesWordsWithTheirLeadingSpaceAndAddsNoBosByDefault() {
        Tokenizer gpt2 = vocab("gpt-2");
        assertThat(gpt2.encode("Hello world", true, false)).containsExactly(15496, 995);
        assertThat(gpt2.addsBos()).isFalse();
        assertThat(gpt2.tokenText(995)).isEqualTo("Ġworld");
        assertThat(gpt2.decode(new int[] {15496, 995})).isEqualTo("Hello world");
    }

    @Test
    void endOfTextIsAControlTokenOnlyParsedWhenAsked() {
        Tokenizer gpt2 = vocab("gpt-2");
        assertThat(gpt2.encode("a<|endoftext|>b", false, true)).containsSubsequence(50256);
        assertThat(gpt2.encode("a<|endoftext|>b", false, false)).doesNotContain(50256);
        assertThat(gpt2.isEndOfGeneration(50256)).isTrue();
        assertThat(gpt2.isControl(50256)).isTrue();
        assertThat(gpt2.decode(gpt2.encode("a<|endoftext|>b", false, true))).isEqualTo("ab");
    }

    @Test
    void addsBosWhereTheFileAsksForIt() {
        Tokenizer coder = vocab("deepseek-coder");
        assertThat(coder.addsBos()).isTrue();
        assertThat(coder.encode("x", true, false)[0]).isEqualTo(32013);
        assertThat(coder.isEndOfGeneration(32014)).isTrue(); // <｜end▁of▁sentence｜>
    }

    @Test
    void decodingReassemblesMultiByteCharactersSplitOverTokens() {
        for (String name : List.of("gpt-2", "falcon", "mpt", "starcoder", "deepseek-llm")) {
            Tokenizer t = vocab(name);
            String text = "🚀 我想在apple工作 😶‍🌫️ кириллица";
            int[] ids = t.encode(text, false, false);
            assertThat(t.decode(ids)).as(name).isEqualTo(text);
            int bytes = 0;
            for (int id : ids) {
                bytes += t.tokenBytes(id).length;
            }
            assertThat(bytes).as(name).isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
        }
    }

    @Test
    void vocabulariesWithoutTestVectorsLoadAndRoundTrip() {
        for (String name : List.of("gpt-neox", "baichuan")) {
            Tokenizer t = vocab(name);
            String text = "Hello, world! 3.14 — ünïcödé";
            String decoded = t.decode(t.encode(text, false, false));
            assertThat(decoded.strip()).as(name).isEqualTo(text);
        }
        assertThat(vocab("gpt-neox").vocabSize()).isEqualTo(50432);
        assertThat(vocab("baichuan").vocabSize()).isEqualTo(64000);
    }
}
