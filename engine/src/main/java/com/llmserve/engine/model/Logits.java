package com.llmserve.engine.model;

import java.util.Arrays;

/**
 * The logits of the rows a forward pass was asked for: either whole rows ({@code rows()} rows of
 * {@code vocabSize()} floats), or only each row's {@link #topK()} best tokens and their logits,
 * when the caller needs no more (greedy choice) and the backend chose them where it computed them.
 */
public final class Logits {

    private final int vocabSize;
    private float[] data;
    private int rows;
    private int topK;
    private int[] topIds;
    private float[] topValues;

    public Logits(int vocabSize) {
        this.vocabSize = vocabSize;
        this.data = new float[0];
        this.topIds = new int[0];
        this.topValues = new float[0];
    }

    /** Makes room for {@code rows} whole rows, keeping the array when it is large enough. */
    public void reset(int rows) {
        long needed = (long) rows * vocabSize;
        if (needed > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(rows + " logit rows of " + vocabSize + " do not fit one array");
        }
        if (data.length < needed) {
            data = new float[(int) needed];
        }
        this.rows = rows;
        this.topK = 0;
    }

    /** Makes room for the {@code k} best tokens of {@code rows} rows, instead of whole rows. */
    public void resetTop(int rows, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be positive: " + k);
        }
        int needed = Math.multiplyExact(rows, k);
        if (topIds.length < needed) {
            topIds = new int[needed];
            topValues = new float[needed];
        }
        this.rows = rows;
        this.topK = k;
    }

    public int rows() {
        return rows;
    }

    public int vocabSize() {
        return vocabSize;
    }

    /** How many of each row's best tokens this holds; 0 when it holds whole rows. */
    public int topK() {
        return topK;
    }

    /** Row {@code r}'s best tokens are {@code topIds()[r * topK() ..]}, best first (ties to the lower id). */
    public int[] topIds() {
        return topIds;
    }

    /** The logits of {@link #topIds()}, at the same indexes. */
    public float[] topValues() {
        return topValues;
    }

    /** The backing array of whole rows; row {@code r} starts at {@link #offset(int)}. */
    public float[] array() {
        wholeRows();
        return data;
    }

    public int offset(int row) {
        wholeRows();
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

    /** The best token of row {@code row} (ties to the lower id), in either form. */
    public int best(int row) {
        if (row < 0 || row >= rows) {
            throw new IndexOutOfBoundsException("logit row " + row + " of " + rows);
        }
        if (topK > 0) {
            return topIds[row * topK];
        }
        int o = row * vocabSize;
        int best = 0;
        for (int i = 1; i < vocabSize; i++) {
            if (data[o + i] > data[o + best]) {
                best = i;
            }
        }
        return best;
    }

    private void wholeRows() {
        if (topK > 0) {
            throw new IllegalStateException("only the " + topK + " best tokens of each row were computed");
        }
    }
}
