package com.llmserve.app.models;

import com.llmserve.engine.sched.EmbeddingEngine;
import com.llmserve.engine.sched.EngineObserver;
import com.llmserve.engine.sched.EngineStats;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Hands each engine loop the observer that turns its timings into meters, and tells the meters
 * where the loop's live state is. One replica is one model on one device ({@code cpu},
 * {@code cuda:0}); a model with a CPU fallback has two. The suppliers are called from any thread
 * and may be called before the engine runs (they then answer zeros).
 */
public interface ModelObservers {

    /** No meters. */
    ModelObservers NONE = new ModelObservers() {
        @Override
        public EngineObserver completion(String model, String device, Supplier<EngineStats> stats) {
            return EngineObserver.NONE;
        }

        @Override
        public EmbeddingEngine.EmbeddingObserver embedding(
                String model, String device, LongSupplier inputsEmbedded, IntSupplier waitingRequests) {
            return EmbeddingEngine.EmbeddingObserver.NONE;
        }

        @Override
        public void released(String model) {}
    };

    /** The observer of a completion model's engine loop on {@code device}. */
    EngineObserver completion(String model, String device, Supplier<EngineStats> stats);

    /** The observer of an embedding model's loop on {@code device}. */
    EmbeddingEngine.EmbeddingObserver embedding(
            String model, String device, LongSupplier inputsEmbedded, IntSupplier waitingRequests);

    /**
     * Every replica of {@code model} has closed (the model left the service, or its load failed):
     * its meters go, so that a scrape shows no model that is not served and a later copy of the id
     * reads its own engine.
     */
    void released(String model);
}
