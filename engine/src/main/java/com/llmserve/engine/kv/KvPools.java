package com.llmserve.engine.kv;

/** The block pools of a {@link KvLayout}'s groups, all of one block size. Not thread-safe, as {@link BlockPool}. */
public final class KvPools {

    private final KvLayout layout;
    private final BlockPool[] pools;
    private final int blockSize;

    public KvPools(KvLayout layout, int blockSize) {
        this.layout = layout;
        this.blockSize = blockSize;
        this.pools = new BlockPool[layout.groups()];
        for (int g = 0; g < pools.length; g++) {
            pools[g] = new BlockPool(layout.blocksOfGroup()[g], blockSize);
        }
    }

    public KvLayout layout() {
        return layout;
    }

    public int groups() {
        return pools.length;
    }

    public BlockPool pool(int group) {
        return pools[group];
    }

    public int blockSize() {
        return blockSize;
    }

    /** Blocks in use, per group. */
    public long[] used() {
        long[] u = new long[pools.length];
        for (int g = 0; g < pools.length; g++) {
            u[g] = pools[g].used();
        }
        return u;
    }

    /**
     * Blocks in use in blocks of every layer (each group's blocks weighted by its share of the
     * layers, rounded up): the memory in use as the one-group pool would count it.
     */
    public int usedAllLayerBlocks() {
        return layout.allLayerEquivalent(used());
    }

    /** The pools' blocks (reserved ones excluded) in blocks of every layer, rounded down. */
    public int totalAllLayerBlocks() {
        long layerBlocks = 0;
        for (int g = 0; g < pools.length; g++) {
            layerBlocks += (long) (pools[g].capacity() - 1) * layout.layersOfGroup()[g];
        }
        return (int) (layerBlocks / layout.layers());
    }

    public long cacheHits() {
        long h = 0;
        for (BlockPool p : pools) {
            h += p.cacheHits();
        }
        return h;
    }

    public long cacheQueries() {
        long q = 0;
        for (BlockPool p : pools) {
            q += p.cacheQueries();
        }
        return q;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("KvPools[").append(layout);
        for (BlockPool p : pools) {
            b.append(", ").append(p);
        }
        return b.append("]").toString();
    }
}
