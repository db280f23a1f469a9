package com.llmserve.engine.tokenizer;

import java.util.Arrays;

/** A growable {@code int} array, so encoding does not box every token id. */
final class IntList {

    private int[] values;
    private int size;

    IntList(int capacity) {
        values = new int[Math.max(capacity, 8)];
    }

    void add(int value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    int size() {
        return size;
    }

    int get(int index) {
        return values[index];
    }

    void truncate(int newSize) {
        size = newSize;
    }

    int[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
