package com.llmserve.gpu;

import com.llmserve.gpu.spi.DnnDriver;

/** MIOpen bound to one stream (from {@link Stream#dnn()}); FP32, packed rows. */
public final class Dnn {

    private final Stream stream;
    private final DnnDriver driver;

    Dnn(Stream stream, DnnDriver driver) {
        this.stream = stream;
        this.driver = driver;
    }

    /**
     * Softmax over each row of a {@code rows x cols} row-major matrix. The library checks the
     * shape: an empty one (0 rows or columns) is its error, a {@link GpuCallException} (MIOpen's
     * {@code miopenStatusBadParm}).
     */
    public void softmax(DeviceBuffer x, DeviceBuffer y, int rows, int cols) {
        long bytes = (long) rows * cols * Float.BYTES;
        x.checkRange(0, bytes);
        y.checkRange(0, bytes);
        driver.softmax(x.address(), y.address(), rows, cols);
    }

    public Stream stream() {
        return stream;
    }

    void close() {
        driver.close();
    }
}
