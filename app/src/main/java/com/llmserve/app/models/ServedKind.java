package com.llmserve.app.models;

import com.llmserve.engine.backend.Backend;
import io.github.resilience4j.timelimiter.TimeLimiter;
import java.util.concurrent.CompletableFuture;

/**
 * What loading and serving one kind of model takes, for {@link ModelLoader}'s one load path:
 * how a replica's model loads and its loop starts, what a CPU copy needs, how a replica is probed,
 * and the served model its replicas make.
 *
 * @param <M> the loaded model
 * @param <E> its engine loop
 */
interface ServedKind<M extends AutoCloseable, E extends AutoCloseable> {

    /**
     * Loads the model's weights onto {@code backend}.
     *
     * @param accelerated whether the backend is a GPU, where some sizes differ
     */
    M load(Backend backend, boolean accelerated);

    /**
     * Starts the loop of a replica of {@code model} (loaded on {@code backend}), its meters tagged
     * with {@code device}.
     */
    E start(M model, Backend backend, String device);

    /** Bytes a CPU copy needs besides the file's: its KV cache, if any (sized like {@code model}'s). */
    long cacheBytes(M model);

    /**
     * The share of {@code engine}'s KV cache in use, 0 to 1 (its fullest group), as of its latest
     * statistics: among replicas with as many requests in flight, a new one goes to the emptier
     * cache. Kinds without a cache have none in use.
     */
    default double kvUse(E engine) {
        return 0;
    }

    /** One short request straight on {@code engine}; completes when it answered, exceptionally with its error. */
    CompletableFuture<?> probe(E engine);

    /** The time limiter whose timeout bounds a request of this kind. */
    TimeLimiter timeLimiter();

    /** The served model over {@code replicas}. */
    ServedModel serve(ReplicaSet<M, E> replicas);
}
