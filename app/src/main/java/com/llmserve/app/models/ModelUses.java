package com.llmserve.app.models;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The requests using one loaded model. A model taken out of the catalog (its file deleted, an
 * admin's {@code DELETE}, a new version of its file) is retired: new requests no longer find it,
 * and it closes once the last request that took it has ended, so that no answer in flight is cut.
 */
final class ModelUses {

    private final ServedModel model;
    private final Consumer<ModelUses> unused;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private int users;
    private boolean retired;
    private boolean handedOver;

    /**
     * @param unused called once, on the thread that retires the model or ends its last request,
     *               when it is retired and no request uses it any more
     */
    ModelUses(ServedModel model, Consumer<ModelUses> unused) {
        this.model = model;
        this.unused = unused;
    }

    ServedModel model() {
        return model;
    }

    /** Taken by a request; the registry calls it only while the model is in the catalog. */
    synchronized void acquire() {
        users++;
    }

    /** The request that took the model has ended. */
    void release() {
        boolean last;
        synchronized (this) {
            users--;
            last = lastUse();
        }
        if (last) {
            unused.accept(this);
        }
    }

    /** Out of the catalog: closes once no request uses it. */
    void retire() {
        boolean last;
        synchronized (this) {
            retired = true;
            last = lastUse();
        }
        if (last) {
            unused.accept(this);
        }
    }

    private boolean lastUse() {
        if (retired && users == 0 && !handedOver) {
            handedOver = true;
            return true;
        }
        return false;
    }

    /**
     * Claims the model for closing at shutdown, whoever still uses it; false when it has been
     * handed over for closing already.
     */
    synchronized boolean claim() {
        if (handedOver) {
            return false;
        }
        handedOver = true;
        return true;
    }

    synchronized int users() {
        return users;
    }

    /** Completed once the model is closed; the registry completes it. */
    CompletableFuture<Void> closed() {
        return closed;
    }
}
