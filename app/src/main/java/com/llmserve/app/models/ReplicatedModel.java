package com.llmserve.app.models;

import com.llmserve.app.resilience.Failover;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.util.List;

/**
 * What every served model is: an id, a tokenizer, and its replicas with the routing between them
 * (two when a GPU model has a CPU copy). The kinds add their requests and their own limits.
 *
 * @param <M> the engine's model
 * @param <E> the engine loop that runs it
 */
public abstract sealed class ReplicatedModel<M extends AutoCloseable, E extends AutoCloseable> implements ServedModel
        permits ServedTextModel, ServedEmbeddingModel {

    private final String id;
    private final Tokenizer tokenizer;
    private final String architecture;
    final ReplicaSet<M, E> replicas;

    ReplicatedModel(String id, ReplicaSet<M, E> replicas, Tokenizer tokenizer, String architecture) {
        this.id = id;
        this.replicas = replicas;
        this.tokenizer = tokenizer;
        this.architecture = architecture;
    }

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final String architecture() {
        return architecture;
    }

    @Override
    public final Tokenizer tokenizer() {
        return tokenizer;
    }

    @Override
    public final String backendDescription() {
        return replicas.description();
    }

    /** The copies of the model: the primaries first (one per GPU it is placed on), then the CPU fallback when there is one. */
    public final List<Replica<M, E>> replicas() {
        return replicas.all();
    }

    @Override
    public final List<Failover> failovers() {
        return replicas.failovers();
    }

    /** Requests admitted to each primary replica and not yet settled, in {@link #replicas()}' order. */
    public final int[] inFlight() {
        return replicas.inFlight();
    }

    /** The replicas and the routing between them: for loading and warm-up. */
    final ReplicaSet<M, E> replicaSet() {
        return replicas;
    }

    @Override
    public final void close() {
        replicas.close();
    }

    @Override
    public final String toString() {
        return getClass().getSimpleName() + "[" + id + ", " + architecture + ", " + replicas.description() + "]";
    }
}
