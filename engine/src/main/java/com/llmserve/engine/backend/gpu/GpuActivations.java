package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Activations;
import com.llmserve.gpu.DeviceBuffer;

/** A float32 row-major matrix in device memory; closing returns it to the device's allocator. */
final class GpuActivations implements Activations {

    private final GpuBackend owner;
    private final int rows;
    private final int cols;
    final DeviceBuffer buffer;
    private boolean closed;

    GpuActivations(GpuBackend owner, int rows, int cols, DeviceBuffer buffer) {
        this.owner = owner;
        this.rows = rows;
        this.cols = cols;
        this.buffer = buffer;
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    GpuBackend owner() {
        return owner;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            owner.release(buffer);
        }
    }

    @Override
    public String toString() {
        return "gpu activations " + rows + "x" + cols;
    }
}
