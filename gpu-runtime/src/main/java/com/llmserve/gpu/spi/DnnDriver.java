package com.llmserve.gpu.spi;

/** A DNN-library handle (MIOpen) bound to one stream. FP32 tensors, packed rows. */
public interface DnnDriver extends AutoCloseable {

    /** Softmax over each of {@code rows} rows of {@code cols} values. */
    void softmax(long x, long y, int rows, int cols);

    @Override
    void close();
}
