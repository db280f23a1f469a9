package com.llmserve.engine.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Rows that take their token from the pass before ({@link Batch.Builder#addChoice}). */
class BatchChoicesTests {

    private static final int[] TABLE = {1, 2, 3, 4};

    @Test
    void rowsTakingChoicesNameThePreviousPassesRowsAndGetTheirTokensFromItsBest() {
        Batch b = Batch.builder(16)
                .add(TABLE, 10, new int[] {7}, Batch.Logits.LAST)
                .addChoice(TABLE, 20, 2, Batch.Logits.LAST)
                .addChoice(TABLE, 30, 0, Batch.Logits.LAST)
                .build();

        assertThat(b.takesChoices()).isTrue();
        assertThat(new int[] {b.choiceOf(0), b.choiceOf(1), b.choiceOf(2)}).containsExactly(-1, 2, 0);
        assertThat(b.position(1)).isEqualTo(20);
        assertThat(b.logitRowCount()).isEqualTo(3);

        Batch resolved = b.withChoices(new int[] {40, 41, 42});
        assertThat(resolved.takesChoices()).isFalse();
        assertThat(resolved.tokens()).containsExactly(7, 42, 40);
        assertThat(b.slice(1, 3).choiceOf(0)).isEqualTo(2);
    }

    @Test
    void aChoiceOfARowThePreviousPassDidNotHaveIsRefused() {
        Batch b = Batch.builder(16).addChoice(TABLE, 5, 3, Batch.Logits.LAST).build();

        assertThatThrownBy(() -> b.withChoices(new int[] {1, 2}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("logit row 3 of a pass with 2");
        assertThatThrownBy(() -> Batch.builder(16).addChoice(TABLE, 5, -1, Batch.Logits.LAST))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Batch.builder(16)
                        .add(TABLE, 0, new int[] {1}, Batch.Logits.LAST)
                        .build()
                        .takesChoices())
                .isFalse();
    }
}
