package com.llmserve.app.generation;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.app.ScriptedModel;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Incremental text of one choice: whole characters only, stop strings cut and never shown. */
class ChoiceTextTests {

    private static final Tokenizer TOKENIZER = ScriptedModel.TOKENIZER;

    private static int[] tokens(String text) {
        return TOKENIZER.encode(text, false, false);
    }

    /** Feeds every token and the finish; returns the deltas that came out. */
    private static List<Delta> run(ChoiceText choice, int[] tokens) {
        List<Delta> out = new ArrayList<>();
        for (int t : tokens) {
            Delta d = choice.onToken(t, null);
            if (d != null) {
                out.add(d);
            }
            if (choice.finished()) {
                return out;
            }
        }
        Delta last = choice.onFinish("length");
        if (last != null) {
            out.add(last);
        }
        return out;
    }

    private static String text(List<Delta> deltas) {
        StringBuilder b = new StringBuilder();
        deltas.forEach(d -> b.append(d.text()));
        return b.toString();
    }

    @Test
    void aCharacterSpreadOverByteTokensIsReleasedWholeOnceItsLastByteArrives() {
        int[] ids = tokens("snow ☃ and 😀");
        // the 512-token vocabulary has neither character: they come as byte tokens
        assertThat(ids.length).isGreaterThan(7);

        List<Delta> deltas = run(new ChoiceText(0, TOKENIZER, List.of()), ids);

        assertThat(deltas).allSatisfy(d -> assertThat(d.text()).doesNotContain("\uFFFD"));
        assertThat(deltas).allSatisfy(d -> assertThat(Character.isHighSurrogate(
                        d.text().isEmpty() ? 'x' : d.text().charAt(d.text().length() - 1)))
                .isFalse());
        assertThat(text(deltas)).isEqualTo(TOKENIZER.decode(ids)).contains("☃").contains("😀");
        assertThat(deltas.getLast().finishReason()).isEqualTo("length");
    }

    @Test
    void aStopStringEndsTheTextBeforeItAndNoPartOfItIsEverReleased() {
        List<Delta> deltas =
                run(new ChoiceText(0, TOKENIZER, List.of("the end")), tokens("and that was the end of it"));

        assertThat(text(deltas)).isEqualTo(" and that was ");
        assertThat(deltas.getLast().finishReason()).isEqualTo("stop");
        // " the" was held back while it could still become the stop string, and never sent
        assertThat(deltas).noneSatisfy(d -> assertThat(d.text()).contains("the"));
    }

    @Test
    void aHeldBackPrefixIsReleasedWhenTheStopStringDoesNotFollow() {
        List<Delta> deltas = run(new ChoiceText(0, TOKENIZER, List.of("the end")), tokens("the cat ate the bread"));

        assertThat(text(deltas)).isEqualTo(" the cat ate the bread");
        assertThat(deltas.getLast().finishReason()).isEqualTo("length");
    }

    @Test
    void theEarliestOfSeveralStopStringsWins() {
        List<Delta> deltas =
                run(new ChoiceText(0, TOKENIZER, List.of("bread", "ate")), tokens("the cat ate the bread"));

        assertThat(text(deltas)).isEqualTo(" the cat ");
    }

    @Test
    void tokensAfterTheStopAreDroppedAndNotCounted() {
        ChoiceText choice = new ChoiceText(0, TOKENIZER, List.of("cat"));
        int[] ids = tokens("the cat ate the bread");
        run(choice, ids);
        int counted = choice.generated();

        assertThat(choice.onToken(ids[ids.length - 1], null)).isNull();
        assertThat(choice.onFinish("stop")).isNull();
        assertThat(choice.generated()).isEqualTo(counted).isLessThan(ids.length);
    }

    @Test
    void eachTokenIsReportedOnceWithTheOffsetOfItsText() {
        int[] ids = tokens("the cat ate");
        List<Delta> deltas = run(new ChoiceText(0, TOKENIZER, List.of("xyz")), ids);

        List<Integer> reported = new ArrayList<>();
        deltas.forEach(d -> d.tokens().forEach(t -> reported.add(t.id())));
        assertThat(reported).containsExactly(Arrays.stream(ids).boxed().toArray(Integer[]::new));
        String all = text(deltas);
        deltas.forEach(d -> d.tokens()
                .forEach(t -> assertThat(all.substring(t.textOffset())).startsWith(t.text())));
    }
}
