package com.llmserve.app.models;

import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.model.ModelKind;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The served models and their state. What to serve at startup is decided when the bean is created
 * (so a wrong configuration fails startup); loading and warm-up run on a background thread, one
 * model at a time, once the context starts, so the server answers health probes and tells clients
 * "loading" (503) instead of refusing connections. Models come and go while the service runs
 * ({@link #add}, {@link #replace}, {@link #remove}): one that leaves is out of the catalog at once
 * and closes once no request uses it ({@link ModelUses}), and a new copy of an id loads only after
 * the old copy closed, so two copies never share the memory. Models are closed after the web server
 * has stopped taking requests.
 */
public final class ModelRegistry implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(ModelRegistry.class);
    /** How often a long load logs that it is still going. */
    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(5);
    /** How long stopping waits for a load in progress. */
    private static final Duration LOAD_STOP_LIMIT = Duration.ofMinutes(2);

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
     */
    public record Status(ModelPlan plan, State state, ServedModel model, String error, Duration loadTime) {

        public String id() {
            return plan.id();
        }

        /** The file's modification time (what {@code /v1/models} calls created). */
        public Instant created() {
            return plan.modified();
        }
    }

    private final Object lock = new Object();
    /** The catalog: what requests find, by id, in the order models came. */
    private final Map<String, Status> models = new LinkedHashMap<>();
    /** The use counts of the ready models of the catalog. */
    private final Map<String, ModelUses> uses = new HashMap<>();
    /** Models out of the catalog that requests still use, by id (a new copy of the id waits for it). */
    private final Map<String, ModelUses> retiring = new HashMap<>();
    /** Files of the folder not served, by path. */
    private final Map<Path, SkippedFile> skipped = new LinkedHashMap<>();

    private final List<ModelPlan> startup;
    private final ModelLoader loader;
    private final boolean warmUp;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final ExecutorService loads = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("llmserve-model-loader").daemon(true).factory());
    private volatile boolean running;

    ModelRegistry(ModelCatalog.Startup startup, ModelLoader loader, boolean warmUp) {
        this.startup = startup.plans();
        this.loader = loader;
        this.warmUp = warmUp;
        for (ModelPlan plan : startup.plans()) {
            models.put(plan.id(), loading(plan));
        }
        startup.skipped().forEach(s -> skipped.put(s.file(), s));
    }

    private static Status loading(ModelPlan plan) {
        return new Status(plan, State.LOADING, null, null, null);
    }

    /** Every model, in configuration, then file-name, then arrival order. */
    public List<Status> statuses() {
        synchronized (lock) {
            return List.copyOf(models.values());
        }
    }

    /** The files of the models folder that are not served, with why, in file-name order. */
    public List<SkippedFile> skipped() {
        synchronized (lock) {
            return skipped.values().stream()
                    .sorted((a, b) -> a.file().compareTo(b.file()))
                    .toList();
        }
    }

    /** Called after every change of the models or of their states, on the thread that made it. */
    void onChange(Runnable listener) {
        listeners.add(listener);
    }

    private void changed() {
        listeners.forEach(Runnable::run);
    }

    /**
     * The ready model with this id. Within a request ({@link ModelLeaseFilter}) the request holds
     * it: removing the model does not close it until the request's response is complete.
     *
     * @throws ModelNotFoundException  when no model has this id
     * @throws ModelNotReadyException  while it loads, or when its load failed
     */
    public ServedModel get(String id) {
        ModelLeases leases = ModelLeases.current();
        Status s;
        ModelUses taken = null;
        synchronized (lock) {
            s = models.get(id);
            if (s != null && s.state() == State.READY && leases != null) {
                taken = uses.get(id);
                taken.acquire(); // under the lock: a model still in the catalog is not retired yet
            }
        }
        if (taken != null) {
            leases.hold(taken);
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

    /**
     * Serves a new model: it is listed as loading at once and loads in the background, after the
     * models queued before it.
     *
     * @throws ModelConflictException when a model has this id already
     */
    public Status add(ModelPlan plan) {
        Status status = loading(plan);
        synchronized (lock) {
            if (models.containsKey(plan.id())) {
                throw new ModelConflictException(plan.id());
            }
            models.put(plan.id(), status);
            skipped.remove(plan.path());
        }
        LOG.info("Model '{}' added from {}", plan.id(), plan.path());
        changed();
        schedule(plan);
        return status;
    }

    /**
     * Serves {@code plan} in place of the model with its id (a new version of its file): the old
     * copy leaves at once, requests are told the model is loading until the new copy is ready, and
     * the new copy loads once the old one has closed.
     *
     * @throws ModelNotFoundException when no model has its id (it was removed meanwhile)
     */
    public Status replace(ModelPlan plan) {
        Status status = loading(plan);
        ModelUses old;
        synchronized (lock) {
            if (models.put(plan.id(), status) == null) {
                models.remove(plan.id());
                throw new ModelNotFoundException(plan.id());
            }
            skipped.remove(plan.path());
            old = retire(plan.id());
            lock.notifyAll();
        }
        LOG.info("Model '{}' reloads from {}", plan.id(), plan.path());
        if (old != null) {
            old.retire();
        }
        changed();
        schedule(plan);
        return status;
    }

    /**
     * Takes the model out of service: requests no longer find it, and it closes once the last
     * request that uses it has ended. A load in progress finishes and is closed at once.
     *
     * @throws ModelNotFoundException when no model has this id
     */
    public void remove(String id) {
        ModelUses old;
        Status removed;
        synchronized (lock) {
            removed = models.remove(id);
            if (removed == null) {
                throw new ModelNotFoundException(id);
            }
            old = retire(id);
            lock.notifyAll(); // a model that was loading no longer holds the registry unsettled
        }
        LOG.info(
                "Model '{}' removed{}",
                id,
                old == null ? "" : "; it closes once no request uses it (" + old.users() + " now)");
        if (old != null) {
            old.retire();
        }
        changed();
    }

    /** Moves the ready copy of {@code id} from the catalog's counts to the retiring ones. Holds the lock. */
    private ModelUses retire(String id) {
        ModelUses old = uses.remove(id);
        if (old != null) {
            retiring.put(id, old);
        }
        return old;
    }

    /** Records a file of the folder that is not served (again, if it changed). */
    void skip(SkippedFile file) {
        synchronized (lock) {
            skipped.put(file.file(), file);
        }
        changed();
    }

    /** Forgets a file of the folder that was not served, as it is gone. */
    void forget(Path file) {
        boolean removed;
        synchronized (lock) {
            removed = skipped.remove(file) != null;
        }
        if (removed) {
            changed();
        }
    }

    /** Whether {@code file}, as {@code stamp} says it is, has been judged: a model serves it, or it is skipped. */
    boolean knows(Path file, FileStamp stamp) {
        synchronized (lock) {
            SkippedFile skip = skipped.get(file);
            return (skip != null && stamp.equals(skip.stamp()))
                    || models.values().stream()
                            .anyMatch(s -> s.plan().path().equals(file)
                                    && s.plan().stamp().equals(stamp));
        }
    }

    /** Loads {@code plan} once any copy of its id that requests still use has closed. */
    private void schedule(ModelPlan plan) {
        CompletableFuture<Void> previous;
        synchronized (lock) {
            ModelUses old = retiring.get(plan.id());
            previous = old == null ? CompletableFuture.completedFuture(null) : old.closed();
        }
        previous.whenComplete((done, error) -> {
            try {
                loads.execute(() -> load(plan, "", 0));
            } catch (RejectedExecutionException stopped) {
                LOG.debug("Not loading model '{}': the service stopped", plan.id());
            }
        });
    }

    /** Whether {@code plan} is still what the catalog serves under its id (not removed or replaced since). */
    private boolean current(ModelPlan plan) {
        Status s = models.get(plan.id());
        return s != null && s.plan() == plan; // identity: a replacement is another plan, perhaps an equal one
    }

    /** Whether no model is loading any more (each is ready or failed). */
    public boolean settled() {
        synchronized (lock) {
            return models.values().stream().noneMatch(s -> s.state() == State.LOADING);
        }
    }

    /** Waits until every model is ready or failed; for tests and tools. */
    public boolean awaitSettled(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (models.values().stream().anyMatch(s -> s.state() == State.LOADING)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(lock, left);
            }
            return true;
        }
    }

    @Override
    public void start() {
        running = true;
        long start = System.nanoTime();
        LOG.info("Loading {} model(s)", startup.size());
        for (int i = 0; i < startup.size(); i++) {
            ModelPlan plan = startup.get(i);
            String position = "[" + (i + 1) + "/" + startup.size() + "] ";
            // the GPU models after it: a KV cache sized from a GPU's memory leaves them their part
            int laterGpuModels = (int) startup.subList(i + 1, startup.size()).stream()
                    .filter(p -> p.backend() != BackendChoice.CPU && p.kind() == ModelKind.COMPLETION)
                    .count();
            loads.execute(() -> load(plan, position, laterGpuModels));
        }
        loads.execute(() -> {
            long ready = statuses().stream()
                    .filter(s -> startup.contains(s.plan()) && s.state() == State.READY)
                    .count();
            LOG.info(
                    "{} of {} model(s) ready in {} ms", ready, startup.size(), (System.nanoTime() - start) / 1_000_000);
        });
    }

    private void load(ModelPlan plan, String position, int laterGpuModels) {
        synchronized (lock) {
            if (!running || !current(plan)) {
                return; // removed or replaced while it waited
            }
        }
        LOG.info(
                "{}Loading model '{}' ({}, {}, {} MiB) from {} on backend {}",
                position,
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
            model = loader.load(plan, laterGpuModels);
            long loaded = System.nanoTime();
            LOG.info(
                    "{}Model '{}' loaded in {} ms on {} (context {} tokens)",
                    position,
                    plan.id(),
                    (loaded - start) / 1_000_000,
                    model.backendDescription(),
                    model.maxModelLen());
            if (warmUp) {
                loader.warmUp(model);
                LOG.info(
                        "{}Model '{}' warmed up in {} ms",
                        position,
                        plan.id(),
                        (System.nanoTime() - loaded) / 1_000_000);
            }
            settle(plan, State.READY, model, null, start);
        } catch (Exception | Error e) {
            LOG.error("{}Model '{}' failed to load from {}", position, plan.id(), plan.path(), e);
            if (model != null) {
                loader.unload(model);
            }
            settle(
                    plan,
                    State.FAILED,
                    null,
                    e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(),
                    start);
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

    /** Puts the outcome of a load into the catalog, or closes the model when the plan left it meanwhile. */
    private void settle(ModelPlan plan, State state, ServedModel model, String error, long start) {
        boolean kept;
        synchronized (lock) {
            kept = running && current(plan);
            if (kept) {
                models.put(
                        plan.id(), new Status(plan, state, model, error, Duration.ofNanos(System.nanoTime() - start)));
                if (model != null) {
                    uses.put(plan.id(), new ModelUses(model, this::unused));
                }
                lock.notifyAll();
            }
        }
        if (kept) {
            changed();
        } else if (model != null) {
            LOG.info("Model '{}' was removed while it loaded; closing it", plan.id());
            loader.unload(model);
        }
    }

    /** A retired model that no request uses any more: closed off the thread that ended its last request. */
    private void unused(ModelUses retired) {
        Thread.ofVirtual().name("llmserve-model-close").start(() -> {
            LOG.info(
                    "Closing model '{}': no request uses it any more",
                    retired.model().id());
            loader.unload(retired.model());
            synchronized (lock) {
                retiring.remove(retired.model().id(), retired);
            }
            retired.closed().complete(null);
        });
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
        for (ServedModel m : openModels()) {
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
        for (ServedModel m : openModels()) {
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

    /** The ready models of the catalog and the retired ones that requests still use. */
    private List<ServedModel> openModels() {
        synchronized (lock) {
            List<ServedModel> open = new ArrayList<>();
            models.values().stream().map(Status::model).filter(Objects::nonNull).forEach(open::add);
            retiring.values().forEach(u -> open.add(u.model()));
            return open;
        }
    }

    @Override
    public void stop() {
        running = false;
        loads.shutdown();
        try {
            // a load in progress finishes (native memory and file mappings must not be torn mid-load)
            loads.awaitTermination(LOAD_STOP_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<ServedModel> open = new ArrayList<>();
        synchronized (lock) {
            models.values().stream().map(Status::model).filter(Objects::nonNull).forEach(open::add);
            retiring.values().stream().filter(ModelUses::claim).forEach(u -> open.add(u.model()));
            models.replaceAll((id, s) -> s.model() == null
                    ? s
                    : new Status(s.plan(), State.FAILED, null, "the service stopped", s.loadTime()));
            uses.clear();
            retiring.clear();
        }
        for (ServedModel m : open) {
            LOG.info("Closing model '{}'", m.id());
            loader.unload(m);
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
}
