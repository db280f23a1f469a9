package com.llmserve.engine.kv;

import java.util.Arrays;

/**
 * One sequence's KV blocks in position order: position {@code p} lives in slot
 * {@code p % blockSize} of block {@code blocks[p / blockSize]}.
 */
public final class BlockTable {

    private final BlockPool pool;
    private int[] blocks = new int[4];
    private int count;

    public BlockTable(BlockPool pool) {
        this.pool = pool;
    }

    /** The blocks, as the array a {@code Batch} reads; valid until the table grows or is released. */
    public int[] blocks() {
        return count == blocks.length ? blocks : Arrays.copyOf(blocks, count);
    }

    public int blockCount() {
        return count;
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

    /** Appends a block that another table already holds, taking a reference to it (shared prefix). */
    public void appendShared(int block) {
        pool.retain(block);
        append(block);
    }

    /** Appends a block the caller already holds a reference to (from {@link BlockPool#lookup}). */
    public void appendReferenced(int block) {
        append(block);
    }

    /** Block {@code i} of the table. */
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
        for (int i = 0; i < count; i++) {
            pool.release(blocks[i]);
        }
        count = 0;
    }
}
