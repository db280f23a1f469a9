package com.llmserve.engine.kv;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KvLayoutTests {

    @Test
    void layersWithoutWindowsOrWithFreeingOffKeepOneGroup() {
        KvLayout none = KvLayout.of(new int[] {0, 0, 0}, 100, 16, 8, 64, true);
        assertThat(none).isEqualTo(KvLayout.single(3, 100));
        assertThat(none.windowed(0)).isFalse();
        assertThat(KvLayout.of(new int[] {8, 0, 8}, 100, 16, 8, 64, false)).isEqualTo(KvLayout.single(3, 100));
    }

    @Test
    void everyLayerWindowedIsOneGroupThatFrees() {
        KvLayout mistral = KvLayout.of(new int[] {4096, 4096}, 100, 16, 8, 64, true);
        assertThat(mistral.groups()).isOne();
        assertThat(mistral.windowOfGroup()).containsExactly(4096);
        assertThat(mistral.blocksOfGroup()).containsExactly(100);
        assertThat(mistral.hasGlobalGroup()).isFalse();
    }

    @Test
    void mixedLayersSplitAndTheWindowedGroupsLeftoverMemoryGoesToTheGlobalOne() {
        // gemma3's pattern: five windowed layers to one global, window 512
        int[] windows = {512, 512, 512, 512, 512, 0};
        KvLayout small = KvLayout.of(windows, 1000, 16, 4, 64, true);
        int perSequence = KvLayout.windowBlocksPerSequence(512, 16);
        assertThat(perSequence).isEqualTo(34);
        int windowed = 4 * perSequence + 4 + 1;
        assertThat(small.groupOfLayer()).containsExactly(1, 1, 1, 1, 1, 0);
        assertThat(small.blocksOfGroup()).containsExactly(1000 + (1000 - windowed) * 5, windowed);
        // the memory is at most what one group of 1000 blocks would take
        long layerBlocks = (long) small.blocksOfGroup()[0] + 5L * small.blocksOfGroup()[1];
        assertThat(layerBlocks).isLessThanOrEqualTo(6L * 1000);
        // too little memory for the window's needs: both groups keep what one group had
        assertThat(KvLayout.of(windows, 100, 16, 4, 64, true).blocksOfGroup()).containsExactly(100, 100);
    }

    @Test
    void aWindowedTableGivesBackWhatLeftTheWindowAndKeepsItsIndices() {
        KvLayout layout = new KvLayout(new int[] {0, 1}, new int[] {0, 8}, new int[] {1, 1}, new int[] {32, 32});
        KvPools pools = new KvPools(layout, 4);
        SequenceBlocks seq = new SequenceBlocks(pools);
        assertThat(seq.ensureCapacity(40)).isTrue(); // 10 blocks in each group
        assertThat(pools.used()).containsExactly(10L, 10L);
        seq.slide(39); // a query at 39 reads 32..39: blocks 8 and 9
        assertThat(seq.table(1).firstLive()).isEqualTo(8);
        assertThat(seq.table(1).block(7)).isEqualTo(BlockPool.NULL_BLOCK);
        assertThat(seq.table(1).blockCount()).isEqualTo(10);
        assertThat(pools.used()).containsExactly(10L, 2L);
        assertThat(seq.blocks()[1]).startsWith(0, 0, 0, 0, 0, 0, 0, 0);
        seq.slide(38); // never back
        assertThat(pools.used()).containsExactly(10L, 2L);
        assertThat(pools.usedAllLayerBlocks()).isEqualTo(6); // (10 + 2) / 2
        seq.release();
        assertThat(pools.used()).containsExactly(0L, 0L);
        assertThat(pools.usedAllLayerBlocks()).isZero();
    }

    @Test
    void growingTakesBlocksInEveryGroupOrInNone() {
        KvLayout layout = new KvLayout(new int[] {0, 1}, new int[] {0, 8}, new int[] {1, 1}, new int[] {11, 4});
        KvPools pools = new KvPools(layout, 4);
        SequenceBlocks seq = new SequenceBlocks(pools);
        assertThat(seq.ensureCapacity(12)).isTrue();
        assertThat(seq.ensureCapacity(16)).as("the windowed pool has 3 blocks").isFalse();
        assertThat(pools.used()).containsExactly(3L, 3L);
        seq.slide(12); // a query at 12 reads 5..12: blocks 1 to 3
        assertThat(seq.ensureCapacity(16)).isTrue();
        assertThat(pools.used()).containsExactly(4L, 3L);
        seq.release();
        assertThat(pools.used()).containsExactly(0L, 0L);
    }

    @Test
    void firstNeededIsTheBlockOfTheWindowsFirstPosition() {
        assertThat(SequenceBlocks.firstNeeded(7, 8, 4)).isZero();
        assertThat(SequenceBlocks.firstNeeded(11, 8, 4)).isOne(); // 4..11
        assertThat(SequenceBlocks.firstNeeded(12, 8, 4)).isOne(); // 5..12
        assertThat(SequenceBlocks.firstNeeded(100, 0, 4)).isZero();
    }
}
