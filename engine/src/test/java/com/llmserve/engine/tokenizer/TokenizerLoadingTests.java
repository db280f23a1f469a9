package com.llmserve.engine.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.engine.gguf.GgufMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Building tokenizers from GGUF metadata: which vocabularies load, and how bad ones fail. */
class TokenizerLoadingTests {

    @TempDir
    Path dir;

    @Test
    void everyVocabularyFileLoadsWithItsTokenCount() throws IOException {
        Map<String, Integer> sizes;
        try (Stream<Path> files = Files.list(VocabFixtures.vocabDir())) {
            sizes = files.filter(p -> p.toString().endsWith(".gguf"))
                    .collect(Collectors.toMap(p -> p.getFileName().toString(), p -> VocabFixtures.load(p)
                            .vocabSize()));
        }
        assertThat(sizes)
                .containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
                        Map.entry("ggml-vocab-baichuan.gguf", 64000),
                        Map.entry("ggml-vocab-bert-bge.gguf", 30522),
                        Map.entry("ggml-vocab-deepseek-coder.gguf", 32256),
                        Map.entry("ggml-vocab-deepseek-llm.gguf", 102400),
                        Map.entry("ggml-vocab-falcon.gguf", 65024),
                        Map.entry("ggml-vocab-gpt-2.gguf", 50257),
                        Map.entry("ggml-vocab-gpt-neox.gguf", 50432),
                        Map.entry("ggml-vocab-llama-spm.gguf", 32000),
                        Map.entry("ggml-vocab-mpt.gguf", 50432),
                        Map.entry("ggml-vocab-phi-3.gguf", 32064),
                        Map.entry("ggml-vocab-refact.gguf", 49216),
                        Map.entry("ggml-vocab-starcoder.gguf", 49152)));
    }

    @Test
    void anUnknownTokenizerModelIsRefusedNamingTheSupportedOnes() {
        GgufMetadata m = tiny("t5", List.of("<pad>", "a")).metadata(dir);
        assertThatThrownBy(() -> Tokenizer.fromGguf(m))
                .isInstanceOf(TokenizerException.class)
                .hasMessageContaining("'t5'")
                .hasMessageContaining("llama")
                .hasMessageContaining("gpt2")
                .hasMessageContaining("bert");
    }

    @Test
    void aFileWithoutVocabularyIsRefused() {
        GgufMetadata m = new TinyGguf().put("general.architecture", "llama").metadata(dir);
        assertThatThrownBy(() -> Tokenizer.fromGguf(m))
                .isInstanceOf(TokenizerException.class)
                .hasMessageContaining("tokenizer.ggml.model");
    }

    @Test
    void anUnknownPreTokenizerIsRefusedByName() {
        GgufMetadata m = tiny("gpt2", List.of("a", "b", "ab"))
                .put("tokenizer.ggml.merges", new String[] {"a b"})
                .put("tokenizer.ggml.pre", "klingon")
                .metadata(dir);
        assertThatThrownBy(() -> Tokenizer.fromGguf(m))
                .isInstanceOf(TokenizerException.class)
                .hasMessageContaining("'klingon'");
    }

    @Test
    void addBosWithoutABosTokenIsRefused() {
        GgufMetadata m = tiny("gpt2", List.of("a", "b", "ab"))
                .put("tokenizer.ggml.merges", new String[] {"a b"})
                .put("tokenizer.ggml.pre", "chatglm-bpe") // llama.cpp gives ChatGLM no default BOS
                .put("tokenizer.ggml.add_bos_token", true)
                .metadata(dir);
        assertThatThrownBy(() -> Tokenizer.fromGguf(m))
                .isInstanceOf(TokenizerException.class)
                .hasMessageContaining("add_bos_token");
    }

    @Test
    void aTinyByteLevelVocabularyMergesByRankAndFlagsEndOfTurnMarkers() {
        // Every byte character as a token, then merges "a b" (rank 0) and "ab c" (rank 1).
        List<String> tokens = new java.util.ArrayList<>();
        for (int b = 0; b < 256; b++) {
            tokens.add(String.valueOf(ByteLevel.charOf(b)));
        }
        tokens.add("ab");
        tokens.add("abc");
        tokens.add("<|im_end|>"); // a NORMAL token whose text marks the end of a turn
        GgufMetadata m = tiny("gpt2", tokens)
                .put("tokenizer.ggml.merges", new String[] {"a b", "ab c"})
                .put("tokenizer.ggml.pre", "gpt-2")
                .put("tokenizer.ggml.eos_token_id", 256)
                .metadata(dir);
        Tokenizer t = Tokenizer.fromGguf(m);
        assertThat(t.encode("abc", false, false)).containsExactly(257);
        assertThat(t.encode("abd", false, false)).containsExactly(256, 'd');
        int imEnd = 258;
        assertThat(t.isEndOfGeneration(imEnd)).isTrue();
        assertThat(t.isControl(imEnd))
                .as("llama.cpp turns end-of-turn markers into control tokens")
                .isTrue();
        assertThat(t.encode("x<|im_end|>", false, true)).containsExactly('x', imEnd);
        assertThat(t.decode(new int[] {'x', imEnd})).isEqualTo("x");
    }

    @Test
    void phi3StripsWhitespaceAfterItsSpecialTokensAndEndsTurnsAtEnd() {
        Tokenizer phi3 = VocabFixtures.load(VocabFixtures.vocabDir().resolve("ggml-vocab-phi-3.gguf"));
        int user = 32010;
        int end = 32007;
        assertThat(phi3.isEndOfGeneration(end)).isTrue();
        assertThat(phi3.isEndOfGeneration(32000)).isTrue(); // <|endoftext|>, the file's EOS
        int[] withNewline = phi3.encode("<|user|>\nHi<|end|>", false, true);
        int[] without = phi3.encode("<|user|>Hi<|end|>", false, true);
        assertThat(withNewline).isEqualTo(without);
        assertThat(withNewline[0]).isEqualTo(user);
        assertThat(withNewline[withNewline.length - 1]).isEqualTo(end);
    }

    @Test
    void aBertVocabularyWithoutAnUnknownTokenIsRefused() {
        // MiniLM's vocabulary cut to its first 101 tokens: the default [UNK] (100) is in it, [CLS]
        // (101) is not; here ids that leave [UNK] out: WordPiece would write -1 for a word it
        // cannot cover
        GgufMetadata m = tiny("bert", List.of("[PAD]", "\u2581a", "[SEP]", "[CLS]"))
                .put("tokenizer.ggml.seperator_token_id", 2)
                .put("tokenizer.ggml.cls_token_id", 3)
                .metadata(dir);
        assertThatThrownBy(() -> Tokenizer.fromGguf(m))
                .isInstanceOf(TokenizerException.class)
                .hasMessageContaining("unknown_token_id");
    }

    @Test
    void aBertVocabularyWithoutAClsTokenIsRefusedEvenWithoutAddBos() {
        // WordPiece puts [CLS] first whatever add_bos_token says; without one it wrote -1
        GgufMetadata m = tiny("bert", List.of("[UNK]", "\u2581a", "[SEP]"))
                .put("tokenizer.ggml.seperator_token_id", 2)
                .put("tokenizer.ggml.unknown_token_id", 0)
                .put("tokenizer.ggml.add_bos_token", false)
                .metadata(dir);
        assertThatThrownBy(() -> Tokenizer.fromGguf(m))
                .isInstanceOf(TokenizerException.class)
                .hasMessageContaining("cls_token_id");
    }

    @Test
    void aSmallBertVocabularyWithItsSpecialIdsEncodesInsideIt() {
        GgufMetadata m = tiny("bert", List.of("[UNK]", "\u2581a", "[SEP]", "[CLS]"))
                .put("tokenizer.ggml.seperator_token_id", 2)
                .put("tokenizer.ggml.unknown_token_id", 0)
                .put("tokenizer.ggml.cls_token_id", 3)
                .metadata(dir);
        assertThat(Tokenizer.fromGguf(m).encode("a b", true, false)).containsExactly(3, 1, 0, 2);
    }

    private static TinyGguf tiny(String model, List<String> tokens) {
        return new TinyGguf()
                .put("general.architecture", "llama")
                .put("tokenizer.ggml.model", model)
                .put("tokenizer.ggml.tokens", tokens.toArray(String[]::new));
    }
}
