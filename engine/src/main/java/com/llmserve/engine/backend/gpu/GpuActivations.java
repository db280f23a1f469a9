package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.Backend;
import com.llmserve.gpu.DeviceBuffer;

/** A float32 row-major matrix in device memory; closing returns it to the device's allocator. */
final class GpuActivations extends Activations {

    final DeviceBuffer buffer;

    GpuActivations(Backend owner, int rows, int cols, DeviceBuffer buffer) {
        super(owner, rows, cols);
        this.buffer = buffer;
    }

    @Override
    protected void release() {
        buffer.close();
    }
}
