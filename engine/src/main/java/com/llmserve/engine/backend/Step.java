package com.llmserve.engine.backend;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * One forward pass on a backend: {@code try (Step step = backend.beginStep(batch)) { ... }}.
 * Operations are issued inside it; their results reach the host only through
 * {@link Backend#read} and {@link Backend#topK}, the step's sync points, and when the step closes
 * everything issued has run. A GPU records the operations and runs them at those points (as a
 * captured graph where it can); the CPU runs each at once. One step at a time per backend.
 */
public final class Step implements AutoCloseable {

    private final Backend backend;
    private final Batch batch;
    /** KV storages whose block tables this step has checked against the batch. */
    private final Set<KvStorage> checkedStorages = Collections.newSetFromMap(new IdentityHashMap<>());

    private boolean closed;

    Step(Backend backend, Batch batch) {
        this.backend = backend;
        this.batch = batch;
    }

    /** The batch whose positions and block tables rope and attention read; null for an encoder pass. */
    public Batch batch() {
        return batch;
    }

    boolean isClosed() {
        return closed;
    }

    /** Adds {@code kv} to the checked storages; false when this step checked it already. */
    boolean firstUseOf(KvStorage kv) {
        return checkedStorages.add(kv);
    }

    /** Runs whatever is still pending, then ends the step (also when that fails). */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            backend.endStep(this);
        }
    }

    @Override
    public String toString() {
        return "step on " + backend.name() + (batch == null ? "" : " over " + batch);
    }
}
