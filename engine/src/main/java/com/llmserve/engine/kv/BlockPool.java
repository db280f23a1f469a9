package com.llmserve.engine.kv;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;

/**
 * Owns the KV cache blocks of one model replica: hands them out, counts references (so that
 * sequences can share blocks), takes them back when the last reference goes, and remembers the
 * content of full blocks so that a later sequence with the same prefix reuses them (automatic
 * prefix caching).
 *
 * <p>Invariants: block {@link #NULL_BLOCK} is reserved and never handed out; every other block is
 * either free (reference count 0, in the free queue) or in use (count &gt; 0, not in the queue);
 * {@code free() + used() == capacity() - 1}. A free block may still hold cached content: the free
 * queue is in eviction order (least recently freed first), and a block loses its cached content
 * only when it is handed out again. Not thread-safe: the engine loop that owns the replica is its
 * only user.
 */
public final class BlockPool {

    public static final int NULL_BLOCK = 0;

    private final int blockSize;
    private final int[] refCount;
    /** Free blocks, least recently freed first. */
    private final LinkedHashSet<Integer> freeQueue;
    /** Content key of each cached block, or null. */
    private final BlockKey[] keyOf;

    private final Map<BlockKey, Integer> cached = new HashMap<>();
    private long cacheHits;
    private long cacheQueries;

    /**
     * @param blocks    total blocks including the reserved null block
     * @param blockSize token slots per block
     */
    public BlockPool(int blocks, int blockSize) {
        if (blocks < 2) {
            throw new IllegalArgumentException("a pool needs at least 2 blocks (one is reserved): " + blocks);
        }
        if (blockSize < 1) {
            throw new IllegalArgumentException("block size must be positive: " + blockSize);
        }
        this.blockSize = blockSize;
        this.refCount = new int[blocks];
        this.keyOf = new BlockKey[blocks];
        this.freeQueue = new LinkedHashSet<>(2 * blocks);
        for (int b = 1; b < blocks; b++) {
            freeQueue.add(b);
        }
    }

    public int blockSize() {
        return blockSize;
    }

    /** All blocks, the reserved one included: the size of the backing KV storage. */
    public int capacity() {
        return refCount.length;
    }

    public int free() {
        return freeQueue.size();
    }

    public int used() {
        return refCount.length - 1 - freeQueue.size();
    }

    /** Blocks needed to hold {@code tokens} token slots. */
    public int blocksFor(long tokens) {
        return (int) ((tokens + blockSize - 1) / blockSize);
    }

    /**
     * Takes a free block with one reference, evicting whatever it had cached.
     *
     * @throws OutOfBlocksException when none is free
     */
    public int allocate() {
        Iterator<Integer> it = freeQueue.iterator();
        if (!it.hasNext()) {
            throw new OutOfBlocksException(capacity() - 1);
        }
        int b = it.next();
        it.remove();
        uncache(b);
        refCount[b] = 1;
        return b;
    }

    /** Adds a reference to a block in use (a second sequence sharing it). */
    public void retain(int block) {
        checkInUse(block);
        refCount[block]++;
    }

    /** Drops a reference; the block is free again when none remain (its cached content stays until reused). */
    public void release(int block) {
        checkInUse(block);
        if (--refCount[block] == 0) {
            freeQueue.add(block);
        }
    }

    public int refCount(int block) {
        return refCount[block];
    }

    /**
     * Records that {@code block} holds the keys and values of {@code key}'s tokens, so that another
     * sequence with the same prefix can take it. A block whose content is already cached under
     * another block is left alone (both stay valid; the first is what lookups find).
     */
    public void cache(int block, BlockKey key) {
        checkInUse(block);
        if (keyOf[block] != null || cached.containsKey(key)) {
            return;
        }
        keyOf[block] = key;
        cached.put(key, block);
    }

    /**
     * The block holding {@code key}'s content, with a reference taken for the caller, or
     * {@link #NULL_BLOCK} when none does. A free block found here leaves the free queue.
     */
    public int lookup(BlockKey key) {
        cacheQueries++;
        Integer b = cached.get(key);
        if (b == null) {
            return NULL_BLOCK;
        }
        cacheHits++;
        if (refCount[b] == 0) {
            freeQueue.remove(b);
        }
        refCount[b]++;
        return b;
    }

    /** The block holding {@code key}'s content, or {@link #NULL_BLOCK}; takes no reference and counts no query. */
    public int find(BlockKey key) {
        Integer b = cached.get(key);
        return b == null ? NULL_BLOCK : b;
    }

    /** Blocks found by {@link #lookup}, since the pool was made. */
    public long cacheHits() {
        return cacheHits;
    }

    public long cacheQueries() {
        return cacheQueries;
    }

    /** Blocks whose content is cached (in use or free). */
    public int cachedBlocks() {
        return cached.size();
    }

    private void uncache(int block) {
        BlockKey key = keyOf[block];
        if (key != null) {
            cached.remove(key);
            keyOf[block] = null;
        }
    }

    private void checkInUse(int block) {
        if (block <= NULL_BLOCK || block >= refCount.length || refCount[block] == 0) {
            throw new IllegalStateException("block " + block + " is not in use");
        }
    }

    @Override
    public String toString() {
        return "BlockPool[" + used() + " used, " + free() + " free, " + cached.size() + " cached, " + blockSize
                + " tokens per block]";
    }

    /**
     * The identity of a full block's content: its tokens and everything before them (through the
     * previous block's key). Equal keys mean equal keys and values in the cache, since attention
     * at a position depends on the whole prefix. Tokens are kept and compared, not only hashed, so
     * a hash collision can never hand a sequence another prefix's cache.
     */
    public record BlockKey(BlockKey parent, int[] tokens, int hash) {

        public static BlockKey of(BlockKey parent, int[] tokens, int from, int count) {
            int[] t = Arrays.copyOfRange(tokens, from, from + count);
            int h = parent == null ? 17 : parent.hash;
            h = 31 * h + Arrays.hashCode(t);
            return new BlockKey(parent, t, h);
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof BlockKey k) || k.hash != hash || !Arrays.equals(k.tokens, tokens)) {
                return false;
            }
            // compare the chain iteratively: prompts can be thousands of blocks long
            BlockKey a = parent;
            BlockKey b = k.parent;
            while (a != b) {
                if (a == null || b == null || a.hash != b.hash || !Arrays.equals(a.tokens, b.tokens)) {
                    return false;
                }
                a = a.parent;
                b = b.parent;
            }
            return true;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public String toString() {
            return "BlockKey[" + tokens.length + " tokens, hash " + Integer.toHexString(hash) + "]";
        }
    }
}
