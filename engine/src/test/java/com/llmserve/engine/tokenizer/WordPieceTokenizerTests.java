package com.llmserve.engine.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The uncased BERT WordPiece vocabulary of the embedding models. */
class WordPieceTokenizerTests {

    private static Tokenizer bert() {
        return VocabFixtures.model("all-MiniLM-L6-v2-f16.gguf");
    }

    private static String pieces(int[] ids) {
        return String.join("|", Arrays.stream(ids).mapToObj(bert()::tokenText).toList());
    }

    @Test
    void lowerCasesStripsAccentsAndSplitsPunctuation() {
        assertThat(pieces(bert().encode("Café crème brûlée!", false, false))).isEqualTo("▁cafe|▁cr|eme|▁br|ule|e|▁!");
    }

    @Test
    void wrapsTheInputInClsAndSep() {
        int[] ids = bert().encode("Hello!", true, false);
        assertThat(ids).containsExactly(101, 7592, 999, 102);
        assertThat(bert().bos()).hasValue(101);
        assertThat(bert().eos()).isEmpty();
        assertThat(bert().addsBos()).isTrue();
    }

    @Test
    void aWordThatCannotBeCoveredBecomesOneUnknownToken() {
        assertThat(pieces(bert().encode("🦙🦙 ok", false, false))).isEqualTo("[UNK]|▁ok");
    }

    @Test
    void decodingShowsWordStartsAsSpacesAndDropsControlTokens() {
        assertThat(bert().decode(bert().encode("Café crème", true, false))).isEqualTo(" cafe creme");
    }

    @Test
    void bracketedSpecialTokensAreRecognisedOnlyWhenAsked() {
        assertThat(bert().encode("a [MASK] b", false, true)).containsExactly(1037, 103, 1038);
        assertThat(bert().encode("a [MASK] b", false, false)).doesNotContain(103);
    }
}
