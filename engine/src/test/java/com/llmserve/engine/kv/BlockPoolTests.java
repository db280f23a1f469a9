package com.llmserve.engine.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BlockPoolTests {

    @Test
    void theNullBlockIsNeverHandedOut() {
        BlockPool pool = new BlockPool(5, 16);
        Set<Integer> got = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            got.add(pool.allocate());
        }
        assertThat(got).containsExactlyInAnyOrder(1, 2, 3, 4);
        assertThatThrownBy(pool::allocate)
                .isInstanceOf(OutOfBlocksException.class)
                .hasMessageContaining("all 4");
    }

    @Test
    void aSharedBlockIsFreeOnlyAfterItsLastReference() {
        BlockPool pool = new BlockPool(3, 4);
        int b = pool.allocate();
        pool.retain(b);
        pool.release(b);
        assertThat(pool.free()).isEqualTo(1);
        pool.release(b);
        assertThat(pool.free()).isEqualTo(2);
        assertThatThrownBy(() -> pool.release(b)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> pool.retain(BlockPool.NULL_BLOCK)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void tablesGrowAllOrNothing() {
        BlockPool pool = new BlockPool(4, 4);
        BlockTable a = new BlockTable(pool);
        assertThat(a.ensureCapacity(9)).isTrue();
        assertThat(a.blockCount()).isEqualTo(3);
        BlockTable b = new BlockTable(pool);
        assertThat(b.ensureCapacity(5)).isFalse();
        assertThat(b.blockCount()).isZero();
        assertThat(pool.free()).isZero();
        a.release();
        assertThat(pool.free()).isEqualTo(3);
    }

    @Test
    void thousandsOfRandomSequencesLeaveThePoolFull() {
        Random r = new Random(11);
        BlockPool pool = new BlockPool(257, 16);
        List<BlockTable> live = new ArrayList<>();
        for (int step = 0; step < 20_000; step++) {
            int action = r.nextInt(10);
            if (action < 4) {
                BlockTable t = new BlockTable(pool);
                if (t.ensureCapacity(1 + r.nextInt(200))) {
                    live.add(t);
                }
            } else if (action < 7 && !live.isEmpty()) {
                BlockTable t = live.get(r.nextInt(live.size()));
                t.ensureCapacity(t.capacity() + r.nextInt(40));
            } else if (action < 8 && !live.isEmpty()) {
                // a second sequence sharing the first block of another (n > 1 samples, prefix reuse)
                BlockTable src = live.get(r.nextInt(live.size()));
                if (src.blockCount() > 0) {
                    BlockTable t = new BlockTable(pool);
                    t.appendShared(src.blocks()[0]);
                    live.add(t);
                }
            } else if (!live.isEmpty()) {
                live.remove(r.nextInt(live.size())).release();
            }
            assertThat(pool.free() + pool.used()).isEqualTo(pool.capacity() - 1);
        }
        live.forEach(BlockTable::release);
        assertThat(pool.used()).isZero();
        assertThat(pool.free()).isEqualTo(256);
    }
}
