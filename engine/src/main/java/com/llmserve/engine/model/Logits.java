package com.llmserve.engine.model;

import java.util.Arrays;

/** The logits of the rows a forward pass was asked for: {@code rows()} rows of {@code vocabSize()} floats. */
public final class Logits {

    private final int vocabSize;
    private float[] data;
    private int rows;

    public Logits(int vocabSize) {
        this.vocabSize = vocabSize;
        this.data = new float[0];
    }

    /** Makes room for {@code rows} rows, keeping the array when it is large enough. */
    public void reset(int rows) {
        long needed = (long) rows * vocabSize;
        if (needed > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(rows + " logit rows of " + vocabSize + " do not fit one array");
        }
        if (data.length < needed) {
            data = new float[(int) needed];
        }
        this.rows = rows;
    }

    public int rows() {
        return rows;
    }

    public int vocabSize() {
        return vocabSize;
    }

    /** The backing array; row {@code r} starts at {@link #offset(int)}. */
    public float[] array() {
        return data;
    }

    public int offset(int row) {
        if (row < 0 || row >= rows) {
            throw new IndexOutOfBoundsException("logit row " + row + " of " + rows);
        }
        return row * vocabSize;
    }

    public float get(int row, int token) {
        return data[offset(row) + token];
    }

    /** A copy of row {@code row}. */
    public float[] row(int row) {
        int o = offset(row);
        return Arrays.copyOfRange(data, o, o + vocabSize);
    }
}
