package com.llmserve.app.models;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Serves the models folder as it changes, without a restart. Each look lists the folder's
 * {@code *.gguf} files and compares them with the last look; a file is acted on once its size and
 * modification time have stayed the same for the quiet period, so a file still being copied is not
 * read half-written:
 *
 * <ul>
 *   <li>a new file is added to the registry (it loads in the background; requests get 503 loading
 *       until it is ready), or recorded as skipped with why;
 *   <li>a file that changed is loaded again under the ids it is served as (a skipped one is judged
 *       again);
 *   <li>a removed file's models leave the catalog at once and close after the requests that use
 *       them.
 * </ul>
 *
 * <p>The list of the folder is the truth, looked at every interval; file-system events only wake
 * the watcher sooner, so events that a network file system never sends cost a delay, not a file.
 * A folder that cannot be listed changes nothing (a brief network outage must not unload every
 * model). Models configured in {@code llmserve.models} are not the folder's: they stay as
 * configured. A model removed through the admin endpoint stays removed until its file changes.
 */
final class ModelFolderWatcher implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(ModelFolderWatcher.class);
    /** The shortest wait between looks, so a burst of events costs a few looks, not one each. */
    private static final long MIN_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** A file as last seen: its stamp, since when it has had it, and whether that stamp was acted on. */
    private record Seen(FileStamp stamp, long since, boolean handled) {}

    private final ModelCatalog catalog;
    private final ModelRegistry registry;
    private final long intervalNanos;
    private final long quietNanos;
    private final LongSupplier clock;
    /** Only the watcher's thread (or a test calling {@link #look()}) touches it. */
    private final Map<Path, Seen> seen = new HashMap<>();

    private boolean unlistable;
    private volatile boolean running;
    private Thread thread;
    private volatile WatchService events;
    private WatchKey key;

    /**
     * @param clock nanoseconds, as {@link System#nanoTime()}; tests pass their own
     */
    ModelFolderWatcher(
            ModelCatalog catalog, ModelRegistry registry, ServingProperties.Watch settings, LongSupplier clock) {
        this.catalog = catalog;
        this.registry = registry;
        this.intervalNanos = settings.interval().toNanos();
        this.quietNanos = settings.quietPeriod().toNanos();
        this.clock = clock;
    }

    /**
     * One look at the folder: acts on the files that settled and on those that are gone.
     *
     * @return how long until a file that is settling should be looked at again, at most the interval
     */
    Duration look() {
        List<Path> files;
        try {
            files = catalog.folderFiles();
        } catch (IOException e) {
            if (!unlistable) {
                LOG.warn(
                        "Models folder {} cannot be listed ({}); its models stay as they are until it can",
                        catalog.folder(),
                        e.toString());
                unlistable = true;
            }
            return Duration.ofNanos(intervalNanos);
        }
        if (unlistable) {
            LOG.info("Models folder {} can be listed again", catalog.folder());
            unlistable = false;
        }
        long now = clock.getAsLong();
        long wait = intervalNanos;
        Set<Path> present = new HashSet<>();
        for (Path file : files) {
            Path path = file.toAbsolutePath().normalize();
            FileStamp stamp;
            try {
                stamp = FileStamp.of(path);
            } catch (IOException e) {
                continue; // removed between the listing and now: gone at the next look
            }
            present.add(path);
            Seen before = seen.get(path);
            Seen current = before != null && before.stamp().equals(stamp)
                    ? before
                    // first sight of a file the registry has judged already (at startup): nothing to do
                    : new Seen(stamp, now, before == null && registry.knows(path, stamp));
            if (!current.handled()) {
                long settled = now - current.since();
                if (settled >= quietNanos) {
                    settledFile(path);
                    current = new Seen(stamp, current.since(), true);
                } else {
                    wait = Math.min(wait, quietNanos - settled);
                }
            }
            seen.put(path, current);
        }
        for (Iterator<Map.Entry<Path, Seen>> it = seen.entrySet().iterator(); it.hasNext(); ) {
            Path path = it.next().getKey();
            if (!present.contains(path)) {
                it.remove();
                gone(path);
            }
        }
        return Duration.ofNanos(Math.max(wait, MIN_WAIT_NANOS));
    }

    /** A new or changed file that has stopped changing. */
    private void settledFile(Path path) {
        Path real = ModelCatalog.realPath(path);
        List<ModelRegistry.Status> statuses = registry.statuses();
        if (statuses.stream()
                .anyMatch(s -> s.plan().configured()
                        && ModelCatalog.realPath(s.plan().path()).equals(real))) {
            return; // a configured model's file: served as configured
        }
        List<ModelRegistry.Status> serving =
                statuses.stream().filter(s -> s.plan().path().equals(path)).toList();
        if (serving.isEmpty()) {
            add(path);
        } else {
            serving.forEach(s -> reload(path, s));
        }
    }

    private void add(Path path) {
        String id = ModelCatalog.idOf(path);
        try {
            registry.add(catalog.plan(path, id, null));
        } catch (UnservableModelException e) {
            LOG.warn("Skipping {}: {}", path, e.getMessage());
            registry.skip(e.skipped(id));
        } catch (ModelConflictException e) {
            registry.skip(ModelCatalog.idTaken(path, id));
        }
    }

    /** Its file changed: the model loads again with its own id and options, or leaves if the new file cannot be served. */
    private void reload(Path path, ModelRegistry.Status served) {
        try {
            registry.replace(catalog.plan(path, served.id(), served.plan().spec()));
        } catch (UnservableModelException e) {
            LOG.warn(
                    "Model '{}': its file {} changed and cannot be served any more: {}",
                    served.id(),
                    path,
                    e.getMessage());
            removeQuietly(served.id());
            registry.skip(e.skipped(served.id()));
        } catch (ModelNotFoundException e) {
            // removed meanwhile (the admin endpoint): it stays removed
        }
    }

    private void gone(Path path) {
        registry.forget(path);
        for (ModelRegistry.Status s : registry.statuses()) {
            if (!s.plan().configured() && s.plan().path().equals(path)) {
                LOG.info("Model '{}': its file {} was removed", s.id(), path);
                removeQuietly(s.id());
            }
        }
    }

    private void removeQuietly(String id) {
        try {
            registry.remove(id);
        } catch (ModelNotFoundException e) {
            // removed meanwhile
        }
    }

    @Override
    public void start() {
        running = true;
        thread = Thread.ofPlatform().name("llmserve-models-watch").daemon(true).start(this::run);
        LOG.info(
                "Watching the models folder {} (every {} ms, files read after {} ms unchanged)",
                catalog.folder(),
                TimeUnit.NANOSECONDS.toMillis(intervalNanos),
                TimeUnit.NANOSECONDS.toMillis(quietNanos));
    }

    private void run() {
        try {
            events = FileSystems.getDefault().newWatchService();
        } catch (IOException | UnsupportedOperationException e) {
            LOG.info("No file-system events for the models folder ({}); looking every interval", e.toString());
        }
        while (running) {
            Duration wait;
            try {
                wait = look();
            } catch (RuntimeException e) {
                LOG.error("Looking at the models folder {} failed", catalog.folder(), e);
                wait = Duration.ofNanos(intervalNanos);
            }
            try {
                await(wait);
            } catch (InterruptedException | ClosedWatchServiceException e) {
                return; // stopped
            }
        }
    }

    /** Waits {@code wait}, or until the folder reports a change. */
    private void await(Duration wait) throws InterruptedException {
        if (events == null) {
            Thread.sleep(wait);
            return;
        }
        if (key == null || !key.isValid()) {
            try {
                key = catalog.folder()
                        .register(
                                events,
                                StandardWatchEventKinds.ENTRY_CREATE,
                                StandardWatchEventKinds.ENTRY_DELETE,
                                StandardWatchEventKinds.ENTRY_MODIFY);
            } catch (IOException e) {
                key = null; // not there yet: the periodic look finds it
            }
        }
        WatchKey signalled = events.poll(wait.toNanos(), TimeUnit.NANOSECONDS);
        if (signalled != null) {
            signalled.pollEvents(); // what changed is for the next look to find
            signalled.reset();
        }
    }

    @Override
    public void stop() {
        running = false;
        Thread t = thread;
        if (t == null) {
            return;
        }
        t.interrupt();
        try {
            t.join(Duration.ofSeconds(10)); // a look in progress finishes its registry calls
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (events != null) {
            try {
                events.close();
            } catch (IOException e) {
                LOG.debug("Closing the watch service failed", e);
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Not stopped when the context is paused: it goes with the registry, which is not either. */
    @Override
    public boolean isPauseable() {
        return false;
    }

    /** Starts after the registry (whose startup models are queued first) and stops before it. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 4095;
    }
}
