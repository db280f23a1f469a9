package com.llmserve.app.models;

import java.util.ArrayList;
import java.util.List;

/**
 * The models one HTTP request has taken from the {@link ModelRegistry}, given back when its
 * response is complete ({@link ModelLeaseFilter}): for a stream, after its last event, on another
 * thread than the one that took them. While a request holds a model, removing the model takes it
 * out of the catalog but does not close it.
 */
final class ModelLeases {

    private static final ScopedValue<ModelLeases> CURRENT = ScopedValue.newInstance();

    private final List<ModelUses> held = new ArrayList<>();
    private boolean released;

    /** Runs {@code op} (the handling of one request) with these leases as the request's. */
    <T, X extends Throwable> T during(ScopedValue.CallableOp<? extends T, X> op) throws X {
        return ScopedValue.where(CURRENT, this).call(op);
    }

    /** The leases of the request being handled on this thread, or null outside a request. */
    static ModelLeases current() {
        return CURRENT.isBound() ? CURRENT.get() : null;
    }

    /** Holds {@code uses} (already acquired) until {@link #release()}; at once when released already. */
    void hold(ModelUses uses) {
        synchronized (this) {
            if (!released) {
                held.add(uses);
                return;
            }
        }
        uses.release();
    }

    /** Gives back every model held; later calls do nothing. */
    void release() {
        List<ModelUses> toRelease;
        synchronized (this) {
            if (released) {
                return;
            }
            released = true;
            toRelease = List.copyOf(held);
            held.clear();
        }
        toRelease.forEach(ModelUses::release);
    }
}
