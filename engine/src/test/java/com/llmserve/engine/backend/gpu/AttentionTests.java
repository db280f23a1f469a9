package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_ATT_MAX_SPLITS;
import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.kernels.Kernel;
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
        // groups no part size divides are cut into single heads; groups of one or two heads stay whole
        "30, 6, 1, 5",
        "30, 6, 64, 5",
        "28, 4, 64, 7",
        "36, 6, 1, 3",
        "36, 6, 4, 2",
        "24, 8, 1, 3",
        "24, 8, 4, 1",
        "16, 8, 1, 1",
        "16, 16, 1, 1",
    })
    void theSplitKernelCutsAKvHeadsQueryHeadsIntoTheFewestEqualPartsOfAtMostTwoHeadsForOneRowAndFourForMore(
            int heads, int kvHeads, int rows, int parts) {
        AttentionShape shape = new AttentionShape(heads, kvHeads, 128, 0.088f, true, 0);

        assertThat(Attention.headParts(shape, rows, false)).isEqualTo(parts);
        assertThat(heads / kvHeads / parts).as("heads a block takes").isLessThanOrEqualTo(rows == 1 ? 2 : 4);
        // the arrival counters are sized for one row's parts: never fewer than a batch's, on either kernel
        assertThat(Attention.headParts(shape, 1, false))
                .isGreaterThanOrEqualTo(parts)
                .isGreaterThanOrEqualTo(Attention.headParts(shape, rows, true));
    }

    @ParameterizedTest(name = "{0}/{1} heads of {2}: {3}")
    @CsvSource({
        "32, 8, 128, ATTENTION_DMMA_D128",
        "32, 4, 128, ATTENTION_DMMA_D128",
        "32, 32, 64, ATTENTION_DMMA_D64",
        "32, 8, 96, ATTENTION_SPLIT_D96",
        "16, 8, 256, ATTENTION_SPLIT_D256",
    })
    void decodeRowsOfHeadsOf64And128TakeTheTensorCoreKernelInOnePartFromTwoRowsWhereTheDeviceHasThem(
            int heads, int kvHeads, int headDim, Kernel kernel) {
        AttentionShape shape = new AttentionShape(heads, kvHeads, headDim, 0.088f, true, 0);

        assertThat(Attention.headSizeKernel(shape, false, true, false)).isEqualTo(kernel);
        assertThat(Attention.headSizeKernel(shape, false, false, false).name()).startsWith("ATTENTION_SPLIT_");
        assertThat(Attention.headSizeKernel(shape, false, false, true).name()).startsWith("ATTENTION_SPLIT_");
        if (kernel.name().contains("DMMA")) {
            assertThat(Attention.headSizeKernel(shape, true, true, false).name())
                    .startsWith("ATTENTION_DMMA_Q8_");
            // two rounds ahead over an F16 cache; the Q8_0 cache's kernel keeps one round
            assertThat(Attention.headSizeKernel(shape, false, true, true).name())
                    .isEqualTo(kernel.name().replace("DMMA", "DMMA2"));
            assertThat(Attention.headSizeKernel(shape, true, true, true).name()).startsWith("ATTENTION_DMMA_Q8_");
            assertThat(Attention.headParts(shape, 1, true)).isEqualTo(Attention.headParts(shape, 1, false));
            assertThat(Attention.headParts(shape, 2, true)).isEqualTo(1);
            assertThat(Attention.headParts(shape, 64, true)).isEqualTo(1);
        }
    }

    @ParameterizedTest(name = "{0} multiprocessors, {1} kv heads")
    @CsvSource({"132, 1", "132, 4", "132, 8", "108, 8", "304, 8", "60, 3", "1, 1"})
    void everyStepSplitIntoPartsHasAtMostTheRowsTheArrivalCountersAreSizedFor(int multiprocessors, int kvHeads) {
        int bound = Attention.splitRows(multiprocessors, kvHeads);
        for (int rows = 1; rows <= 4096; rows++) {
            for (boolean tensorCores : new boolean[] {false, true}) {
                int splits = Attention.splits(multiprocessors, kvHeads, rows, tensorCores);
                if (splits > 1) {
                    assertThat(rows).as("rows of a split step").isLessThanOrEqualTo(bound);
                    // the partials (Attention.reserve): a round of blocks, or one row's splits, at most
                    assertThat((long) rows * splits * kvHeads)
                            .isLessThanOrEqualTo(Math.max(
                                    (long) Attention.BLOCKS_PER_MULTIPROCESSOR * multiprocessors,
                                    (long) LS_ATT_MAX_SPLITS * kvHeads));
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} rows: {1} splits on CUDA cores, {2} on tensor cores")
    @CsvSource({
        // H200 (132 multiprocessors), 8 kv heads: the attention lab's best (MANY_ROWS)
        "1, 32, 16",
        "2, 32, 8",
        "4, 16, 4",
        "8, 8, 2",
        "16, 4, 1",
        "32, 2, 1",
        "33, 2, 1",
        "34, 1, 1",
        "64, 1, 1",
        "128, 1, 1",
    })
    void aStepsBlocksFillOneRoundOfFourAMultiprocessorOnCudaCoresAndOfOneOnTensorCores(
            int rows, int cudaCores, int tensorCores) {
        assertThat(Attention.splits(132, 8, rows, false)).isEqualTo(cudaCores);
        assertThat(Attention.splits(132, 8, rows, true)).isEqualTo(tensorCores);
    }
}
