package com.llmserve.engine.sampling;

/**
 * A max-heap of token ids keyed by probability, built in linear time so that the candidates a
 * truncation keeps come out sorted without sorting the whole vocabulary. Ties go to the lower id.
 */
final class ProbabilityHeap {

    private final float[] key;
    private final int[] heap;
    private int size;

    /** Builds over ids {@code 0..n-1}, using {@code storage} (length at least n) as the heap array. */
    ProbabilityHeap(float[] key, int[] storage, int n) {
        this.key = key;
        this.heap = storage;
        for (int i = 0; i < n; i++) {
            heap[i] = i;
        }
        this.size = n;
        for (int i = n / 2 - 1; i >= 0; i--) {
            siftDown(i);
        }
    }

    int pop() {
        int top = heap[0];
        heap[0] = heap[--size];
        siftDown(0);
        return top;
    }

    private boolean above(int a, int b) {
        return key[a] > key[b] || (key[a] == key[b] && a < b);
    }

    private void siftDown(int i) {
        int id = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && above(heap[child + 1], heap[child])) {
                child++;
            }
            if (!above(heap[child], id)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = id;
    }
}
