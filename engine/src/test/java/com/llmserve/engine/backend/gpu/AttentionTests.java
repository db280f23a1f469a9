package com.llmserve.engine.backend.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.backend.AttentionShape;
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
            if (Attention.splits(multiprocessors, kvHeads, rows) > 1) {
                assertThat(rows).as("rows of a split step").isLessThanOrEqualTo(bound);
            }
        }
    }
}
