package com.llmserve.engine.backend;

/**
 * Backend memory for the paged key/value cache: per layer, {@code blocks * blockSize} token slots of
 * keys and of values. Which blocks belong to which sequence is not its concern: the block tables
 * in each {@link Batch} say so, and {@code com.llmserve.engine.kv.BlockPool} hands blocks out.
 */
public interface KvStorage extends AutoCloseable {

    int layers();

    int blocks();

    int blockSize();

    int kvDim();

    /** Bytes this storage takes. */
    long byteSize();

    @Override
    void close();
}
