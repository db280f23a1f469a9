package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.backend.Activations;

/** Activations on the Java heap: the Vector API loads from arrays with the fewest checks. */
final class CpuActivations implements Activations {

    final float[] data;
    private final int rows;
    private final int cols;

    CpuActivations(int rows, int cols) {
        if ((long) rows * cols > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("activations of " + rows + " x " + cols + " are too large");
        }
        this.rows = rows;
        this.cols = cols;
        this.data = new float[rows * cols];
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    @Override
    public void close() {
        // heap memory: released with the object
    }

    @Override
    public String toString() {
        return "cpu activations [" + rows + " x " + cols + "]";
    }
}
