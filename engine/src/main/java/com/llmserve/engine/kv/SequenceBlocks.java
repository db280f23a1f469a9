package com.llmserve.engine.kv;

/**
 * One sequence's block tables, one per KV group of a {@link KvLayout}, each from its group's pool.
 * A windowed group's table gives back the blocks that left the window ({@link #slide}).
 */
public final class SequenceBlocks {

    private final KvPools pools;
    private final BlockTable[] tables;

    public SequenceBlocks(KvPools pools) {
        this.pools = pools;
        this.tables = new BlockTable[pools.groups()];
        for (int g = 0; g < tables.length; g++) {
            tables[g] = new BlockTable(pools.pool(g));
        }
    }

    public BlockTable table(int group) {
        return tables[group];
    }

    public int groups() {
        return tables.length;
    }

    /** Per group, the blocks as a {@code Batch} reads them. */
    public int[][] blocks() {
        int[][] b = new int[tables.length][];
        for (int g = 0; g < tables.length; g++) {
            b[g] = tables[g].blocks();
        }
        return b;
    }

    /** Entries of the tables (the same in every group), those given back included. */
    public int blockCount() {
        return tables[0].blockCount();
    }

    /**
     * The first table entry a query at {@code position} reads in a group of this window: the block
     * of {@code position - window + 1} (0 without a window).
     */
    public static int firstNeeded(int position, int window, int blockSize) {
        return window <= 0 ? 0 : Math.max(0, position - window + 1) / blockSize;
    }

    /**
     * Gives back, in every windowed group, the blocks no query from {@code position} on reads: those
     * wholly before {@code position - window + 1}. The next step's first query is at
     * {@code position} (the sequence's first uncomputed token), and every later query reaches back
     * less far, so chunks of a prompt and decodes alike only need what is kept.
     */
    public void slide(int position) {
        for (int g = 0; g < tables.length; g++) {
            int window = pools.layout().windowOfGroup()[g];
            if (window > 0) {
                tables[g].releaseBefore(firstNeeded(position, window, pools.blockSize()));
            }
        }
    }

    /**
     * Grows every table to cover {@code tokens} positions, all or nothing.
     *
     * @return false, with nothing taken, when some group's pool has too few free blocks
     */
    public boolean ensureCapacity(long tokens) {
        for (int g = 0; g < tables.length; g++) {
            int needed = pools.pool(g).blocksFor(tokens) - tables[g].blockCount();
            if (needed > pools.pool(g).free()) {
                return false;
            }
        }
        for (BlockTable t : tables) {
            if (!t.ensureCapacity(tokens)) {
                throw new IllegalStateException("a pool ran out of blocks it had");
            }
        }
        return true;
    }

    /** Blocks held, over every group. */
    public long[] liveBlocks() {
        long[] live = new long[tables.length];
        for (int g = 0; g < tables.length; g++) {
            live[g] = tables[g].liveBlocks();
        }
        return live;
    }

    /** Returns every block to its pool; the tables are empty afterwards. */
    public void release() {
        for (BlockTable t : tables) {
            t.release();
        }
    }
}
