package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.Backend;

/** Activations on the Java heap: the Vector API loads from arrays with the fewest checks. */
final class CpuActivations extends Activations {

    final float[] data;

    CpuActivations(Backend owner, int rows, int cols) {
        super(owner, rows, cols);
        this.data = new float[rows * cols];
    }

    @Override
    protected void release() {
        // heap memory: released with the object
    }
}
