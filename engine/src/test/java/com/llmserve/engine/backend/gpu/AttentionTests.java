package com.llmserve.engine.backend.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Batch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AttentionTests {

    @ParameterizedTest(name = "{0}/{1} heads, {2} rows: {3} parts")
    @CsvSource({
        // qwen3-30b-a3b: two heads a block alone, four in a batch
        "32, 4, 1, 4",
        "32, 4, 2, 2",
        "32, 4, 64, 2",
        // llama-8b, qwen3-8b
        "32, 8, 1, 2",
        "32, 8, 16, 1",
        // groups a part's size does not divide, and groups of one or two heads, stay whole
        "30, 6, 1, 1",
        "36, 6, 1, 3",
        "36, 6, 4, 1",
        "16, 8, 1, 1",
        "16, 16, 1, 1",
    })
    void theSplitKernelCutsAKvHeadsQueryHeadsIntoPartsOfTwoForOneRowAndFourForMore(
            int heads, int kvHeads, int rows, int parts) {
        AttentionShape shape = new AttentionShape(heads, kvHeads, 128, 0.088f, true, 0);

        assertThat(Attention.headParts(shape, rows)).isEqualTo(parts);
        // the arrival counters are sized for one row's parts: never fewer than a batch's
        assertThat(Attention.headParts(shape, 1)).isGreaterThanOrEqualTo(parts);
    }

    @ParameterizedTest(name = "{0} multiprocessors, {1} kv heads")
    @CsvSource({"132, 1", "132, 4", "132, 8", "108, 8", "304, 8", "60, 3", "1, 1"})
    void everyStepSplitIntoPartsHasAtMostTheRowsTheArrivalCountersAreSizedFor(int multiprocessors, int kvHeads) {
        int bound = Attention.splitRows(multiprocessors, kvHeads);
        for (int rows = 1; rows <= 4096; rows++) {
            int shortSplits = Attention.splits(multiprocessors, kvHeads, rows, 1);
            for (int context : new int[] {1, Attention.LONG_CONTEXT, 1 << 20}) {
                int splits = Attention.splits(multiprocessors, kvHeads, rows, context);
                if (splits > 1) {
                    assertThat(rows).as("rows of a split step").isLessThanOrEqualTo(bound);
                    // the partials (Attention.reserve): a long context needs no more than the fixed
                    // share (2 x multiprocessors + the graphs' 64 rows) or a short one at these rows
                    assertThat(rows * splits)
                            .isLessThanOrEqualTo(Math.max(2 * multiprocessors + 64, rows * shortSplits));
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} rows at {1} positions: {2} splits")
    @CsvSource({
        // H200 (132 multiprocessors), 8 kv heads: the attention lab's cases (MANY_ROWS)
        "1, 16, 32",
        "16, 160, 3",
        "32, 1000, 2",
        "64, 160, 1",
        "64, 319, 1",
        "64, 320, 2",
        "64, 1000, 2",
        "48, 512, 2",
        // more rows than the lab measured keep one split
        "65, 1000, 1",
        "128, 1000, 1",
    })
    void manyRowsSplitTheirPositionsInTwoOnlyOnceTheContextIsLong(int rows, int context, int splits) {
        assertThat(Attention.splits(132, 8, rows, context)).isEqualTo(splits);
    }

    @Test
    void theContextIsTheLongestRowsPositionsOrTheWindow() {
        Batch batch = Batch.builder(16)
                .add(new int[] {0, 1}, 0, new int[] {5, 6, 7}, Batch.Logits.LAST)
                .add(new int[] {2, 3, 4}, 40, new int[] {9}, Batch.Logits.LAST)
                .build();

        assertThat(Attention.context(batch, new AttentionShape(8, 8, 64, 0.125f, true, 0)))
                .isEqualTo(41);
        assertThat(Attention.context(batch, new AttentionShape(8, 8, 64, 0.125f, true, 16)))
                .isEqualTo(16);
    }
}
