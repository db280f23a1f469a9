package com.llmserve.engine.backend;

/**
 * What a backend hands out ({@link Weight}, {@link Activations}, {@link KvStorage}): owned by that
 * backend, refused by any other, usable until closed. Closing frees its memory once, after the
 * work already issued that may still use it has run.
 */
public abstract class BackendResource implements AutoCloseable {

    private final Backend owner;
    private boolean closed;

    protected BackendResource(Backend owner) {
        this.owner = owner;
    }

    final Backend owner() {
        return owner;
    }

    final boolean isClosed() {
        return closed;
    }

    @Override
    public final void close() {
        if (!closed) {
            closed = true;
            owner.released(this::release);
        }
    }

    /** Frees the backend's memory; runs once. */
    protected abstract void release();
}
