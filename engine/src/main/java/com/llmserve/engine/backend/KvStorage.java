package com.llmserve.engine.backend;

/**
 * Backend memory for the paged key/value cache: per layer, {@code blocks * blockSize} token slots
 * of keys and of values, stored as halves (llama.cpp's default F16 cache). Which blocks belong to
 * which sequence is not its concern: the block tables of each {@link Batch} say so, and
 * {@code com.llmserve.engine.kv.BlockPool} hands blocks out.
 */
public abstract class KvStorage extends BackendResource {

    private final int layers;
    private final int blocks;
    private final int blockSize;
    private final int kvDim;

    protected KvStorage(Backend owner, int layers, int blocks, int blockSize, int kvDim) {
        super(owner);
        this.layers = layers;
        this.blocks = blocks;
        this.blockSize = blockSize;
        this.kvDim = kvDim;
    }

    public final int layers() {
        return layers;
    }

    public final int blocks() {
        return blocks;
    }

    public final int blockSize() {
        return blockSize;
    }

    public final int kvDim() {
        return kvDim;
    }

    /** Token slots per layer. */
    public final long slots() {
        return (long) blocks * blockSize;
    }

    /** Bytes this storage takes: a half per value, keys and values. */
    public final long byteSize() {
        return 2L * Short.BYTES * layers * slots() * kvDim;
    }

    @Override
    public String toString() {
        return owner().name() + " kv " + layers + " layers x " + blocks + " blocks of " + blockSize + " x " + kvDim;
    }
}
