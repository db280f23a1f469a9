package com.llmserve.app.models;

import com.llmserve.engine.model.ModelKind;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The served models and their state. What to serve is decided when the bean is created (so a
 * wrong configuration fails startup); loading and warm-up run on a background thread once the
 * context starts, so the server answers health probes and tells clients "loading" (503) instead
 * of refusing connections. Models are closed after the web server has stopped taking requests.
 */
public final class ModelRegistry implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(ModelRegistry.class);
    /** How often a long load logs that it is still going. */
    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(5);

    /** Where a model stands. */
    public enum State {
        LOADING,
        READY,
        FAILED;

        public String apiName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A model's current status.
     *
     * @param model    the loaded model, null unless {@code READY}
     * @param error    why the load failed, null unless {@code FAILED}
     * @param loadTime how long loading and warm-up took, null while loading
     * @param created  the file's modification time (what {@code /v1/models} calls created)
     */
    public record Status(
            ModelPlan plan, State state, ServedModel model, String error, Duration loadTime, Instant created) {

        public String id() {
            return plan.id();
        }
    }

    private final Map<String, Status> models = new LinkedHashMap<>();
    private final ModelLoader loader;
    private final boolean warmUp;
    private final CountDownLatch settled = new CountDownLatch(1);
    private volatile Thread loaderThread;
    private volatile boolean running;

    ModelRegistry(List<ModelPlan> plans, ModelLoader loader, boolean warmUp) {
        this.loader = loader;
        this.warmUp = warmUp;
        for (ModelPlan plan : plans) {
            models.put(plan.id(), new Status(plan, State.LOADING, null, null, null, modified(plan)));
        }
    }

    /** Every model, in configuration then file-name order. */
    public synchronized List<Status> statuses() {
        return List.copyOf(models.values());
    }

    /**
     * The ready model with this id.
     *
     * @throws ModelNotFoundException  when no model has this id
     * @throws ModelNotReadyException  while it loads, or when its load failed
     */
    public ServedModel get(String id) {
        Status s;
        synchronized (this) {
            s = models.get(id);
        }
        if (s == null) {
            throw new ModelNotFoundException(id);
        }
        return switch (s.state()) {
            case READY -> s.model();
            case LOADING ->
                throw new ModelNotReadyException("The model '" + id + "' is loading; try again shortly", true);
            case FAILED -> throw new ModelNotReadyException("The model '" + id + "' failed to load", false);
        };
    }

    /** The ready completion model with this id; {@link WrongModelKindException} for an embedding model. */
    public ServedTextModel textModel(String id) {
        return switch (get(id)) {
            case ServedTextModel m -> m;
            case ServedEmbeddingModel m ->
                throw new WrongModelKindException(id, ModelKind.EMBEDDING, ModelKind.COMPLETION);
        };
    }

    /** The ready embedding model with this id; {@link WrongModelKindException} for a completion model. */
    public ServedEmbeddingModel embeddingModel(String id) {
        return switch (get(id)) {
            case ServedEmbeddingModel m -> m;
            case ServedTextModel m -> throw new WrongModelKindException(id, ModelKind.COMPLETION, ModelKind.EMBEDDING);
        };
    }

    /** Whether no model is loading any more (each is ready or failed). */
    public synchronized boolean settled() {
        return models.values().stream().noneMatch(s -> s.state() == State.LOADING);
    }

    /** Waits until every model is ready or failed; for tests and tools. */
    public boolean awaitSettled(Duration timeout) throws InterruptedException {
        return settled.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void start() {
        running = true;
        loaderThread =
                Thread.ofPlatform().name("llmserve-model-loader").daemon(true).start(this::loadAll);
    }

    private void loadAll() {
        List<Status> pending = statuses();
        long start = System.nanoTime();
        LOG.info("Loading {} model(s)", pending.size());
        int index = 0;
        for (Status s : pending) {
            if (!running) {
                break;
            }
            index++;
            load(s.plan(), index, pending.size());
        }
        long ready = statuses().stream().filter(s -> s.state() == State.READY).count();
        LOG.info("{} of {} model(s) ready in {} ms", ready, pending.size(), (System.nanoTime() - start) / 1_000_000);
        settled.countDown();
    }

    private void load(ModelPlan plan, int index, int total) {
        LOG.info(
                "[{}/{}] Loading model '{}' ({}, {}, {} MiB) from {} on backend {}",
                index,
                total,
                plan.id(),
                plan.kindName(),
                plan.architecture(),
                String.format(Locale.ROOT, "%.1f", plan.fileSize() / 1048576.0),
                plan.path(),
                plan.backend().name().toLowerCase(Locale.ROOT));
        long start = System.nanoTime();
        Thread progress =
                Thread.ofVirtual().name("llmserve-load-progress").start(() -> reportProgress(plan.id(), start));
        ServedModel model = null;
        try {
            model = loader.load(plan);
            long loaded = System.nanoTime();
            LOG.info(
                    "[{}/{}] Model '{}' loaded in {} ms on {} (context {} tokens)",
                    index,
                    total,
                    plan.id(),
                    (loaded - start) / 1_000_000,
                    model.backendDescription(),
                    model.maxModelLen());
            if (warmUp) {
                loader.warmUp(model);
                LOG.info(
                        "[{}/{}] Model '{}' warmed up in {} ms",
                        index,
                        total,
                        plan.id(),
                        (System.nanoTime() - loaded) / 1_000_000);
            }
            replace(plan, State.READY, model, null, Duration.ofNanos(System.nanoTime() - start));
        } catch (Exception | Error e) {
            LOG.error("[{}/{}] Model '{}' failed to load from {}", index, total, plan.id(), plan.path(), e);
            if (model != null) {
                closeQuietly(model);
            }
            replace(
                    plan,
                    State.FAILED,
                    null,
                    e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(),
                    Duration.ofNanos(System.nanoTime() - start));
        } finally {
            progress.interrupt();
        }
    }

    private static void reportProgress(String id, long start) {
        try {
            while (true) {
                Thread.sleep(PROGRESS_INTERVAL);
                LOG.info("Still loading model '{}' ({} s)", id, (System.nanoTime() - start) / 1_000_000_000);
            }
        } catch (InterruptedException e) {
            // the load ended
        }
    }

    private synchronized void replace(ModelPlan plan, State state, ServedModel model, String error, Duration loadTime) {
        Status old = models.get(plan.id());
        models.put(plan.id(), new Status(plan, state, model, error, loadTime, old.created()));
    }

    /**
     * Waits until no model has work queued or running, at most {@code limit}; then ends the
     * generations still running with finish reason length, so their answers end cleanly (a stream
     * with its last chunk and {@code [DONE]}), and waits a moment for them to be written. Embedding
     * batches are short and always finish. Called at shutdown, after new requests are refused.
     *
     * @return the generations ended by the limit (0 when everything finished in time)
     */
    public int drain(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (busy() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        int ended = 0;
        for (ServedModel m : readyModels()) {
            if (m instanceof ServedTextModel text) {
                var stats = text.stats();
                int running = stats.waitingRequests() + stats.runningSequences();
                if (running > 0) {
                    ended += running;
                    text.endAll();
                }
            }
        }
        long flush = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (busy() && System.nanoTime() < flush) {
            Thread.sleep(20);
        }
        return ended;
    }

    private boolean busy() {
        for (ServedModel m : readyModels()) {
            boolean working =
                    switch (m) {
                        case ServedTextModel text ->
                            text.stats().waitingRequests() + text.stats().runningSequences() > 0;
                        case ServedEmbeddingModel embedding -> embedding.waitingRequests() > 0;
                    };
            if (working) {
                return true;
            }
        }
        return false;
    }

    private synchronized List<ServedModel> readyModels() {
        return models.values().stream()
                .map(Status::model)
                .filter(java.util.Objects::nonNull)
                .toList();
    }

    @Override
    public void stop() {
        running = false;
        Thread t = loaderThread;
        if (t != null) {
            try {
                // a load in progress finishes (native memory and file mappings must not be torn mid-load)
                t.join(Duration.ofMinutes(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        List<ServedModel> loaded = new ArrayList<>();
        synchronized (this) {
            for (Status s : models.values()) {
                if (s.model() != null) {
                    loaded.add(s.model());
                }
            }
            models.replaceAll((id, s) -> s.model() == null
                    ? s
                    : new Status(s.plan(), State.FAILED, null, "the service stopped", s.loadTime(), s.created()));
        }
        for (ServedModel m : loaded) {
            LOG.info("Closing model '{}'", m.id());
            closeQuietly(m);
        }
    }

    private static void closeQuietly(ServedModel model) {
        try {
            model.close();
        } catch (RuntimeException e) {
            LOG.warn("Closing model '{}' failed", model.id(), e);
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * Not stopped when the context is paused (Spring 7 pauses idle contexts, e.g. the test
     * framework's cached ones): stopping closes every model, and loading them again is the work of a
     * new start of the service, not of a resumed context.
     */
    @Override
    public boolean isPauseable() {
        return false;
    }

    /**
     * Starts before the web server and stops after it: lifecycle beans stop in decreasing phase
     * order, and the web server's graceful shutdown lets running requests finish first.
     */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 4096;
    }

    private static Instant modified(ModelPlan plan) {
        try {
            return Files.getLastModifiedTime(plan.path()).toInstant();
        } catch (java.io.IOException e) {
            return Instant.now();
        }
    }
}
