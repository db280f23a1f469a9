package com.llmserve.engine.kv;

import java.util.Arrays;

/**
 * One sequence's KV blocks in position order: position {@code p} lives in slot
 * {@code p % blockSize} of block {@code blocks[p / blockSize]}. A table of sliding-window layers
 * gives back the blocks that left the window ({@link #releaseBefore}); their entries become
 * {@link BlockPool#NULL_BLOCK}, so later positions keep their indices.
 */
public final class BlockTable {

    private final BlockPool pool;
    private int[] blocks = new int[4];
    private int count;
    /** Entries before this one were given back (they hold {@link BlockPool#NULL_BLOCK}). */
    private int released;

    public BlockTable(BlockPool pool) {
        this.pool = pool;
    }

    /** The blocks, as the array a {@code Batch} reads; valid until the table grows or is released. */
    public int[] blocks() {
        return count == blocks.length ? blocks : Arrays.copyOf(blocks, count);
    }

    /** Entries of the table, those given back included. */
    public int blockCount() {
        return count;
    }

    /** Blocks the table holds: its entries less those given back. */
    public int liveBlocks() {
        return count - released;
    }

    /** Entries given back by {@link #releaseBefore}: the first one still held. */
    public int firstLive() {
        return released;
    }

    /**
     * Gives back the blocks of entries {@code [firstLive(), min(entry, blockCount()))}: no position
     * they hold will be read again (they left the sliding window). Their entries become
     * {@link BlockPool#NULL_BLOCK}; a block another table shares stays in use for it.
     */
    public void releaseBefore(int entry) {
        int end = Math.min(entry, count);
        for (; released < end; released++) {
            pool.release(blocks[released]);
            blocks[released] = BlockPool.NULL_BLOCK;
        }
    }

    /** Token slots the table covers. */
    public long capacity() {
        return (long) count * pool.blockSize();
    }

    /**
     * Grows the table to cover {@code tokens} positions, all or nothing.
     *
     * @return false, with nothing taken, when the pool has too few free blocks
     */
    public boolean ensureCapacity(long tokens) {
        int needed = pool.blocksFor(tokens) - count;
        if (needed <= 0) {
            return true;
        }
        if (needed > pool.free()) {
            return false;
        }
        if (count + needed > blocks.length) {
            blocks = Arrays.copyOf(blocks, Math.max(count + needed, blocks.length * 2));
        }
        for (int i = 0; i < needed; i++) {
            blocks[count++] = pool.allocate();
        }
        return true;
    }

    /** Appends an entry that holds nothing (a block outside the window, never read). */
    public void appendHole() {
        if (released != count) {
            throw new IllegalStateException("a hole after a held block");
        }
        append(BlockPool.NULL_BLOCK);
        released++;
    }

    /** Appends a block that another table already holds, taking a reference to it (shared prefix). */
    public void appendShared(int block) {
        pool.retain(block);
        append(block);
    }

    /** Appends a block the caller already holds a reference to (from {@link BlockPool#lookup}). */
    public void appendReferenced(int block) {
        append(block);
    }

    /** Block {@code i} of the table ({@link BlockPool#NULL_BLOCK} once given back). */
    public int block(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException(i);
        }
        return blocks[i];
    }

    private void append(int block) {
        if (count == blocks.length) {
            blocks = Arrays.copyOf(blocks, blocks.length * 2);
        }
        blocks[count++] = block;
    }

    /** Returns every block to the pool; the table is empty afterwards. */
    public void release() {
        for (int i = released; i < count; i++) {
            pool.release(blocks[i]);
        }
        count = 0;
        released = 0;
    }
}
