package com.llmserve.engine.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The 32k Llama 2 SentencePiece vocabulary of {@code llama-2-tiny-random.gguf}. */
class SentencePieceTokenizerTests {

    private static Tokenizer llama2() {
        return VocabFixtures.model("llama-2-tiny-random.gguf");
    }

    @Test
    void loadsTheLlama2VocabularyWithItsSpecialTokens() {
        Tokenizer t = llama2();
        assertThat(t.vocabSize()).isEqualTo(32000);
        assertThat(t.bos()).hasValue(1);
        assertThat(t.eos()).hasValue(2);
        assertThat(t.addsBos()).isTrue();
        assertThat(t.isControl(1)).isTrue();
        assertThat(t.isEndOfGeneration(2)).isTrue();
        assertThat(t.isEndOfGeneration(1)).isFalse();
        assertThat(t.tokenText(15043)).isEqualTo("▁Hello");
    }

    @Test
    void encodesWithTheDummyPrefixAndAddsBosButNotEos() {
        assertThat(llama2().encode("Hello world", true, false)).containsExactly(1, 15043, 3186);
        assertThat(llama2().encode("Hello world", false, false)).containsExactly(15043, 3186);
        assertThat(llama2().encode("", true, false)).containsExactly(1);
        assertThat(llama2().encode("", false, false)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Hello world",
                "  two  spaces ",
                "line\nbreak\ttab",
                "naïve café — ½",
                "🦙 llamas 🚀",
                "我想在apple工作1314151天～",
                "нещо на Български",
                "कान्तिपुर",
                "\u0000\u0001 control"
            })
    void roundTripsTextBehindTheDummyPrefixSpace(String text) {
        int[] ids = llama2().encode(text, false, false);
        // decode() shows the space that encoding put in front, as a streamed completion would.
        assertThat(llama2().decode(ids)).isEqualTo(" " + text);
    }

    @Test
    void charactersOutsideTheVocabularyFallBackToByteTokensAndDecodeWhole() {
        int[] ids = llama2().encode("🦙", false, false);
        // "▁" then the four UTF-8 bytes of U+1F999 as <0xF0> <0x9F> <0xA6> <0x99>
        assertThat(Arrays.stream(ids).mapToObj(llama2()::tokenText).toList())
                .containsExactly("▁", "<0xF0>", "<0x9F>", "<0xA6>", "<0x99>");
        assertThat(llama2().tokenBytes(ids[1])).containsExactly(0xF0);
        assertThat(llama2().decode(ids)).isEqualTo(" 🦙");
        // One byte token alone is not UTF-8: it shows as U+FFFD.
        assertThat(llama2().decode(new int[] {ids[1]})).isEqualTo("\uFFFD");
    }

    @Test
    void controlTokensAreParsedOnlyWhenAskedAndDecodeToNothing() {
        int[] parsed = llama2().encode("<s>Hi</s>", false, true);
        assertThat(parsed[0]).isEqualTo(1);
        assertThat(parsed[parsed.length - 1]).isEqualTo(2);
        // After a special token the text gets the dummy prefix again, as llama.cpp does.
        assertThat(llama2().decode(parsed)).isEqualTo(" Hi");

        int[] literal = llama2().encode("<s>Hi</s>", false, false);
        assertThat(literal).doesNotContain(1, 2);
        assertThat(llama2().decode(literal)).isEqualTo(" <s>Hi</s>");
    }

    @Test
    void aSingleSpaceIsTheDummyPrefixPlusTheSpace() {
        // shared/golden: " " -> [1, 410, 410] with stories260K; the same rule in the 32k vocabulary.
        int space = llama2().encode(" ", false, false)[0];
        assertThat(llama2().encode(" ", true, false)).containsExactly(1, space);
        assertThat(llama2().tokenText(space)).isEqualTo("▁▁");
    }

    @Test
    void decodingRejectsIdsOutsideTheVocabulary() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> llama2().decode(new int[] {32000}))
                .withMessageContaining("32000");
    }
}
