package com.llmserve.engine.kv;

import java.util.ArrayDeque;

/**
 * Owns the KV cache blocks of one model replica: hands them out, counts references (so that
 * sequences can share blocks), and takes them back when the last reference goes.
 *
 * <p>Invariants: block {@link #NULL_BLOCK} is reserved and never handed out (a padding entry of
 * block tables); every other block is either free (in the free queue, reference count 0) or in use
 * (reference count &gt; 0); {@code free() + used() == capacity() - 1}. Not thread-safe: the engine
 * loop that owns the replica is its only user.
 */
public final class BlockPool {

    public static final int NULL_BLOCK = 0;

    private final int blockSize;
    private final int[] refCount;
    /** Free blocks, the least recently freed first. */
    private final ArrayDeque<Integer> freeQueue;

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
        this.freeQueue = new ArrayDeque<>(blocks);
        for (int b = 1; b < blocks; b++) {
            freeQueue.addLast(b);
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
     * Takes a free block with one reference.
     *
     * @throws OutOfBlocksException when none is free
     */
    public int allocate() {
        Integer b = freeQueue.pollFirst();
        if (b == null) {
            throw new OutOfBlocksException(capacity() - 1);
        }
        refCount[b] = 1;
        return b;
    }

    /** Adds a reference to a block in use (a second sequence sharing it). */
    public void retain(int block) {
        checkInUse(block);
        refCount[block]++;
    }

    /** Drops a reference; the block is free again when none remain. */
    public void release(int block) {
        checkInUse(block);
        if (--refCount[block] == 0) {
            freeQueue.addLast(block);
        }
    }

    public int refCount(int block) {
        return refCount[block];
    }

    private void checkInUse(int block) {
        if (block <= NULL_BLOCK || block >= refCount.length || refCount[block] == 0) {
            throw new IllegalStateException("block " + block + " is not in use");
        }
    }

    @Override
    public String toString() {
        return "BlockPool[" + used() + " used, " + free() + " free, " + blockSize + " tokens per block]";
    }
}
