package com.llmserve.engine.tokenizer;

import java.util.Arrays;

/**
 * A binary min-heap of candidate merges for the BPE and SentencePiece merge loops, on primitive
 * arrays so that a long prompt does not allocate an object per candidate. Each entry has a
 * {@code long} priority (smallest pops first; callers pack "best score, then leftmost" into it)
 * and three {@code int} payload fields. Stale entries are not removed; the merge loops skip them
 * when they pop, as llama.cpp does.
 */
final class MergeQueue {

    private long[] keys = new long[64];
    private int[] left = new int[64];
    private int[] a = new int[64];
    private int[] b = new int[64];
    private int size;

    // The popped entry's payload.
    int poppedLeft;
    int poppedA;
    int poppedB;

    void clear() {
        size = 0;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void push(long key, int leftSymbol, int payloadA, int payloadB) {
        if (size == keys.length) {
            int n = size * 2;
            keys = Arrays.copyOf(keys, n);
            left = Arrays.copyOf(left, n);
            a = Arrays.copyOf(a, n);
            b = Arrays.copyOf(b, n);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (keys[parent] <= key) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        keys[i] = key;
        left[i] = leftSymbol;
        a[i] = payloadA;
        b[i] = payloadB;
    }

    /** Removes the smallest entry and exposes its payload through the {@code popped*} fields. */
    void pop() {
        poppedLeft = left[0];
        poppedA = a[0];
        poppedB = b[0];
        int last = --size;
        if (last == 0) {
            return;
        }
        long key = keys[last];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= last) {
                break;
            }
            if (child + 1 < last && keys[child + 1] < keys[child]) {
                child++;
            }
            if (keys[child] >= key) {
                break;
            }
            move(child, i);
            i = child;
        }
        keys[i] = key;
        left[i] = left[last];
        a[i] = a[last];
        b[i] = b[last];
    }

    private void move(int from, int to) {
        keys[to] = keys[from];
        left[to] = left[from];
        a[to] = a[from];
        b[to] = b[from];
    }
}
