package com.llmserve.engine.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.TestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The Llama 3 vocabulary has no GGUF here, only its Hugging Face files ({@code encoder.json},
 * {@code vocab.bpe}); built from them through the same byte-level BPE code, it must reproduce
 * llama.cpp's {@code ggml-vocab-llama-bpe} vectors.
 */
class Llama3BpeFilesTests {

    private static String[] tokens;
    private static String[] merges;
    private static Tokenizer llama3;

    @BeforeAll
    static void loadFromFiles() throws IOException {
        Path dir = TestData.shared().resolve("tokenizers").resolve("llama3-bpe");
        JsonNode encoder =
                new ObjectMapper().readTree(dir.resolve("encoder.json").toFile());
        tokens = new String[encoder.size()];
        for (Map.Entry<String, JsonNode> e : encoder.properties()) {
            tokens[e.getValue().asInt()] = e.getKey();
        }
        List<String> lines = Files.readAllLines(dir.resolve("vocab.bpe"), StandardCharsets.UTF_8);
        merges = lines.stream()
                .filter(l -> !l.startsWith("#version") && !l.isEmpty())
                .toArray(String[]::new);
        llama3 = VocabTokenizer.create(TokenizerSpec.bpe(tokens, merges, "llama-bpe"));
    }

    @TestFactory
    Stream<DynamicTest> reproducesTheLlamaBpeVectors() {
        Path inp = VocabFixtures.vocabDir().resolve("ggml-vocab-llama-bpe.gguf.inp");
        List<VocabFixtures.Vector> vectors = VocabFixtures.vectors(inp);
        assertThat(vectors).hasSize(46);
        return vectors.stream()
                .map(v -> DynamicTest.dynamicTest(v.toString(), () -> assertThat(llama3.encode(v.text(), false, false))
                        .as(v.toString())
                        .containsExactly(v.expected())));
    }

    @Test
    void decodingReassemblesTheBytesOfEveryVector() {
        for (VocabFixtures.Vector v :
                VocabFixtures.vectors(VocabFixtures.vocabDir().resolve("ggml-vocab-llama-bpe.gguf.inp"))) {
            assertThat(llama3.decode(v.expected())).as(v.toString()).isEqualTo(v.text());
        }
    }

    @Test
    void aWordThatIsATokenIsTakenWholeEvenWhereTheMergesWouldSplitIt() {
        // ignore_merges: " việc" is one Llama 3 token, but merging its bytes by rank stops at three.
        int[] whole = llama3.encode(" việc", false, false);
        assertThat(whole).hasSize(1);
        assertThat(llama3.tokenText(whole[0])).isEqualTo("Ġviá»ĩc");

        Tokenizer withoutIgnoreMerges = VocabTokenizer.create(TokenizerSpec.bpe(tokens, merges, "chatglm-bpe"));
        assertThat(withoutIgnoreMerges.encode(" việc", false, false)).containsExactly(3355, 26298, 66);
    }
}
