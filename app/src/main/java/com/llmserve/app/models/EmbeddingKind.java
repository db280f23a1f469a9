package com.llmserve.app.models;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.EmbeddingModel;
import com.llmserve.engine.sched.EmbeddingEngine;
import com.llmserve.engine.tokenizer.Tokenizer;
import io.github.resilience4j.timelimiter.TimeLimiter;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Embedding models: an embedding model under an {@link EmbeddingEngine} that merges concurrent
 * requests into batches, served with its tokenizer, requests bounded by the {@code embedding} time
 * limiter.
 */
final class EmbeddingKind implements ServedKind<EmbeddingModel, EmbeddingEngine> {

    private final ModelPlan plan;
    private final GgufFile file;
    private final Tokenizer tokenizer;
    private final ServingProperties.Embedding embedding;
    private final TimeLimiter timeLimiter;
    private final ModelObservers observers;
    private final List<int[]> probeInput;

    EmbeddingKind(
            ModelPlan plan,
            GgufFile file,
            ServingProperties.Embedding embedding,
            TimeLimiter timeLimiter,
            ModelObservers observers) {
        this.plan = plan;
        this.file = file;
        this.tokenizer = Tokenizer.fromGguf(file.metadata());
        this.embedding = embedding;
        this.timeLimiter = timeLimiter;
        this.observers = observers;
        this.probeInput = List.of(tokenizer.encode("Hello", true, false));
    }

    @Override
    public EmbeddingModel load(Backend backend, boolean accelerated) {
        return Architectures.loadEmbeddingModel(file, backend, embedding.modelOptions(accelerated, plan.contextSize()));
    }

    @Override
    public EmbeddingEngine start(EmbeddingModel model, Backend backend, String device) {
        boolean accelerated = backend.accelerated();
        AtomicReference<EmbeddingEngine> started = new AtomicReference<>();
        EmbeddingEngine.EmbeddingObserver observer = observers.embedding(
                plan.id(),
                device,
                () -> started.get() == null ? 0 : started.get().inputsEmbedded(),
                () -> started.get() == null ? 0 : started.get().waitingRequests());
        EmbeddingEngine engine = EmbeddingEngine.start(plan.id(), model, embedding.options(accelerated), observer);
        started.set(engine);
        return engine;
    }

    /** An embedding model keeps no cache: a copy needs its weights alone. */
    @Override
    public long cacheBytes(EmbeddingModel model) {
        return 0;
    }

    @Override
    public CompletableFuture<float[][]> probe(EmbeddingEngine engine) {
        return engine.submit(probeInput);
    }

    @Override
    public TimeLimiter timeLimiter() {
        return timeLimiter;
    }

    @Override
    public ServedModel serve(ReplicaSet<EmbeddingModel, EmbeddingEngine> replicas) {
        return new ServedEmbeddingModel(plan.id(), replicas, tokenizer);
    }
}
