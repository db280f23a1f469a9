package com.llmserve.engine.kv;

/** No free KV block is left; the scheduler preempts or waits, a caller without one fails with this. */
public final class OutOfBlocksException extends RuntimeException {

    public OutOfBlocksException(int capacity) {
        super("all " + capacity + " KV cache blocks are in use");
    }
}
