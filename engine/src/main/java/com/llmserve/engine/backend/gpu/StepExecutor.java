package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Cleanup;
import com.llmserve.engine.backend.Pending;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.Event;
import com.llmserve.gpu.Graph;
import com.llmserve.gpu.GraphCapture;
import com.llmserve.gpu.PinnedBuffer;
import com.llmserve.gpu.Stream;
import com.llmserve.gpu.StreamLease;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Runs what a step recorded, at its sync points, on one leased stream: the batch data goes to the
 * metadata buffer, then the kernels run as a replayed graph (a graphable list: captured on its first
 * run), one by one (prompts, BLAS products), or one by one between events when profiling; then
 * the copies back; then the stream is waited for, so the lease goes back idle.
 *
 * <p>A run may instead be issued without waiting ({@link #runLater}): its copies back land in one
 * of two staging slots and its caller awaits it later, so the host records and issues the next
 * step while the device still runs this one. At most {@link #MAX_IN_FLIGHT} such runs are out; the
 * next starts after the last on the device (the same stream, or a wait for its event) and after
 * its metadata left the staging buffer, which the next one refills. Anything else (a run that
 * waits, a capture, stale graphs, freeing memory) first waits for every run still out.
 */
final class StepExecutor implements AutoCloseable {

    private final Device device;
    private final Workspace workspace;
    private final GraphCache graphs;
    private PinnedBuffer readStaging;
    private long captures;
    private long replays;
    private long eagerRuns;
    private double graphMillis;
    private double copyMillis;
    private long launchNanos;
    private long waitNanos;
    private Event graphStart;
    private Event graphEnd;
    private boolean profiling;
    /**
     * Profile keys left out of every launch, or null for none (a measuring instrument: see
     * GpuBackend#omitFromLaunches); null keeps serving launches free of building those keys.
     */
    private Predicate<String> omitted;

    /** Runs issued without waiting, at most this many at once: the one the host reads next and the one after it. */
    static final int MAX_IN_FLIGHT = 2;

    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    private final Slot[] slots = new Slot[MAX_IN_FLIGHT];
    private int nextSlot;

    private final List<Event> profileEvents = new ArrayList<>();
    private final Map<String, GpuBackend.ProfileEntry> profile = new LinkedHashMap<>();

    StepExecutor(Device device, Workspace workspace) {
        this.device = device;
        this.workspace = workspace;
        this.graphs = new GraphCache(workspace.options().maxGraphs());
    }

    /**
     * Runs what {@code step} recorded (if anything), then {@code copyBack} on the same stream, waits,
     * and clears the recording, whether it ran or failed.
     */
    void run(StepRecorder step, Consumer<Stream> copyBack) {
        try (Run r = begin(step)) {
            launch(r);
            finish(r, copyBack);
        }
    }

    /**
     * Issues what {@code step} recorded, then {@code copyBack} into a staging slot of
     * {@code stagingBytes}, and returns without waiting; awaiting the result waits for the device,
     * then hands the slot to {@code copyOut}. A run that cannot go out without waiting (not a
     * replayed graph: eager, profiled or captured first) still goes out, after the runs before it.
     */
    Pending runLater(
            StepRecorder step,
            long stagingBytes,
            BiConsumer<Stream, MemorySegment> copyBack,
            Consumer<MemorySegment> copyOut) {
        while (inFlight.size() >= MAX_IN_FLIGHT) {
            awaitOldest();
        }
        int index = nextSlot;
        Slot slot = slot(index, stagingBytes);
        MemorySegment staging = slot.staging.segment().asSlice(0, stagingBytes);
        try (Run r = begin(step, slot)) {
            launch(r);
            copyBack.accept(r.stream, staging);
            r.stream.record(slot.done);
            launchNanos += System.nanoTime() - r.begun;
            InFlight f = new InFlight(slot, r.stream, r.replayed, r.profiled ? List.copyOf(r.ops()) : null, copyOut);
            inFlight.addLast(f);
            nextSlot = (index + 1) % MAX_IN_FLIGHT;
            return f;
        }
    }

    private void launch(Run r) {
        if (r.step.isEmpty()) {
            return;
        }
        if (profiling) {
            awaitAll(); // the profile's events are shared
            launchProfiled(r);
        } else if (graphable(r)) {
            if (graphs.stale(workspace.generation())) {
                awaitAll(); // the stale graphs are destroyed next: none may still run
            }
            Graph g = cachedGraph(r);
            if (g == null) {
                awaitAll(); // a capture may evict a graph
                beginCapture(r);
                launchAll(r, r.ops());
                g = endCapture(r);
            }
            launchGraph(r, g);
        } else {
            launchEagerly(r, r.ops());
        }
    }

    /**
     * Where a run issued without waiting keeps its copies back and its events; a slot is reused
     * only once the run that had it was awaited.
     */
    private static final class Slot {
        final Event begun;
        final Event metaCopied;
        final Event done;
        final Event graphStart;
        final Event graphEnd;
        PinnedBuffer staging;

        Slot(Device device) {
            begun = device.createEvent();
            metaCopied = device.createEvent();
            done = device.createEvent();
            graphStart = device.createEvent();
            graphEnd = device.createEvent();
        }

        void close() {
            Cleanup.all(begun::close, metaCopied::close, done::close, graphStart::close, graphEnd::close, () -> {
                if (staging != null) {
                    staging.close();
                }
            });
        }
    }

    private Slot slot(int index, long stagingBytes) {
        Slot slot = slots[index];
        if (slot == null) {
            slot = slots[index] = new Slot(device);
        }
        if (slot.staging == null || slot.staging.byteSize() < stagingBytes) {
            if (slot.staging != null) {
                slot.staging.close();
                slot.staging = null;
            }
            slot.staging = device.allocatePinned(Math.max(stagingBytes, 1 << 16));
        }
        return slot;
    }

    /** A run issued without waiting; awaiting it awaits every run issued before it too. */
    private final class InFlight implements Pending {
        private final Slot slot;
        private final Stream stream;
        private final boolean replayed;
        private final List<DeviceOp> profiled;
        private final Consumer<MemorySegment> copyOut;
        private boolean awaited;
        private RuntimeException failure;

        InFlight(Slot slot, Stream stream, boolean replayed, List<DeviceOp> profiled, Consumer<MemorySegment> copyOut) {
            this.slot = slot;
            this.stream = stream;
            this.replayed = replayed;
            this.profiled = profiled;
            this.copyOut = copyOut;
        }

        @Override
        public void await() {
            while (!awaited) {
                awaitOldest();
            }
            if (failure != null) {
                throw failure;
            }
        }

        private void complete() {
            awaited = true;
            long start = System.nanoTime();
            try {
                slot.done.synchronize();
                waitNanos += System.nanoTime() - start;
                if (replayed) {
                    graphMillis += slot.graphEnd.elapsedMillisSince(slot.graphStart);
                    copyMillis += slot.graphStart.elapsedMillisSince(slot.begun)
                            + slot.done.elapsedMillisSince(slot.graphEnd);
                }
                if (profiled != null) {
                    account(profiled);
                }
                copyOut.accept(slot.staging.segment());
            } catch (RuntimeException e) {
                failure = e;
            }
        }
    }

    /** Waits for the oldest run still out and hands over its results (a failure is kept for its own await). */
    private void awaitOldest() {
        InFlight f = inFlight.pollFirst();
        if (f != null) {
            f.complete();
        }
    }

    /** Waits for every run issued without waiting; their results are in place when this returns. */
    void awaitAll() {
        while (!inFlight.isEmpty()) {
            awaitOldest();
        }
    }

    /** Whether runs issued without waiting are still out. */
    boolean anyInFlight() {
        return !inFlight.isEmpty();
    }

    /**
     * A run of one step's recording, begun: its stream leased and the batch data on its way to the
     * metadata buffer, nothing launched yet. Closing gives the stream back and clears the recording;
     * {@link #finish} first, to wait for what was launched.
     */
    final class Run implements AutoCloseable {

        private final StepRecorder step;
        private final StreamLease lease;
        final Stream stream;
        final Launch launch;
        private final Slot slot;
        private GraphCapture capture;
        private boolean replayed;
        private boolean profiled;
        private final long begun = System.nanoTime();

        private Run(StepRecorder step, StreamLease lease, Slot slot) {
            this.step = step;
            this.lease = lease;
            this.stream = lease.stream();
            this.launch = new Launch(stream, workspace);
            this.slot = slot;
        }

        List<DeviceOp> ops() {
            return step.ops();
        }

        @Override
        public void close() {
            try {
                if (capture != null) {
                    capture.close();
                }
            } finally {
                try {
                    lease.close();
                } finally {
                    step.clear();
                }
            }
        }
    }

    /** Begins a run of what {@code step} recorded (which may be nothing), once no run is out. */
    Run begin(StepRecorder step) {
        try {
            awaitAll();
        } catch (RuntimeException e) {
            step.clear();
            throw e;
        }
        return begin(step, null);
    }

    /**
     * Begins a run that may follow runs still out ({@code slot}: the run goes out without
     * waiting) or none: it starts on the device after the last of them, and fills the metadata
     * staging once the last of them copied it.
     */
    private Run begin(StepRecorder step, Slot slot) {
        StreamLease lease;
        try {
            lease = HostTransfer.lease(device);
        } catch (RuntimeException e) {
            step.clear(); // as after a run that failed: nothing recorded is run later by mistake
            throw e;
        }
        Run r = new Run(step, lease, slot);
        try {
            InFlight last = inFlight.peekLast();
            if (last != null && last.stream != r.stream) {
                r.stream.waitFor(last.slot.done); // the metadata buffer it reads is overwritten next
            }
            if (!step.isEmpty()) {
                if (last != null) {
                    last.slot.metaCopied.synchronize();
                }
                long bytes = step.fillMeta();
                StepMeta meta = workspace.meta();
                if (slot != null) {
                    r.stream.record(slot.begun);
                }
                r.stream.copyToDevice(meta.staging().asSlice(0, bytes), meta.buffer());
                if (slot != null) {
                    r.stream.record(slot.metaCopied);
                }
            }
            return r;
        } catch (RuntimeException e) {
            r.close();
            throw e;
        }
    }

    /** Whether {@code r} runs as a captured graph: graphs on, a graphable recording, no profiling. */
    boolean graphable(Run r) {
        return !profiling && workspace.options().graphs() && r.step.graphable() && !r.step.isEmpty();
    }

    /** The graph captured for {@code r}'s operations before, or null. */
    Graph cachedGraph(Run r) {
        return graphs.get(workspace.generation(), r.ops());
    }

    /** Starts capturing {@code r}'s stream: what launches on it until {@link #endCapture} is recorded. */
    void beginCapture(Run r) {
        r.capture = r.stream.beginCapture();
    }

    /** Ends {@code r}'s capture and keeps the graph for later runs of the same operations. */
    Graph endCapture(Run r) {
        GraphCapture c = r.capture;
        r.capture = null;
        Graph g = c.end();
        graphs.put(workspace.generation(), r.ops(), g);
        captures++;
        return g;
    }

    /** Launches {@code g} on {@code r}'s stream, timed by events (its slot's, for a run that does not wait). */
    void launchGraph(Run r, Graph g) {
        if (graphStart == null) {
            graphStart = device.createEvent();
            graphEnd = device.createEvent();
        }
        r.stream.record(r.slot != null ? r.slot.graphStart : graphStart);
        g.launch(r.stream);
        r.stream.record(r.slot != null ? r.slot.graphEnd : graphEnd);
        replays++;
        r.replayed = true;
    }

    /** Launches {@code ops} one by one on {@code r}'s stream. */
    void launchEagerly(Run r, List<DeviceOp> ops) {
        launchAll(r, ops);
        eagerRuns++;
    }

    private void launchAll(Run r, List<DeviceOp> ops) {
        for (DeviceOp op : ops) {
            if (omitted == null || !omitted.test(op.profileKey())) {
                op.launch(r.launch);
            }
        }
    }

    /** Counts a run whose operations someone else launched one by one (a shard group's). */
    void countEagerRun() {
        eagerRuns++;
    }

    /** Issues {@code copyBack} (if any) after what {@code r} launched, and waits for its stream. */
    void finish(Run r, Consumer<Stream> copyBack) {
        if (copyBack != null) {
            copyBack.accept(r.stream);
        }
        long launched = System.nanoTime();
        launchNanos += launched - r.begun;
        r.stream.synchronize();
        waitNanos += System.nanoTime() - launched;
        if (r.replayed) {
            graphMillis += graphEnd.elapsedMillisSince(graphStart);
        }
        if (r.profiled) {
            account(r.ops());
        }
    }

    /** Pinned memory for copies back, at least {@code bytes}; valid until the next call. */
    MemorySegment readStaging(long bytes) {
        if (readStaging == null || readStaging.byteSize() < bytes) {
            if (readStaging != null) {
                readStaging.close();
                readStaging = null;
            }
            readStaging = device.allocatePinned(Math.max(bytes, 1 << 20));
        }
        return readStaging.segment();
    }

    private void launchProfiled(Run r) {
        List<DeviceOp> ops = r.ops();
        while (profileEvents.size() <= ops.size()) {
            profileEvents.add(device.createEvent());
        }
        r.stream.record(profileEvents.getFirst());
        for (int i = 0; i < ops.size(); i++) {
            ops.get(i).launch(r.launch);
            r.stream.record(profileEvents.get(i + 1));
        }
        eagerRuns++;
        r.profiled = true;
    }

    private void account(List<DeviceOp> ops) {
        for (int i = 0; i < ops.size(); i++) {
            DeviceOp op = ops.get(i);
            double ms = profileEvents.get(i + 1).elapsedMillisSince(profileEvents.get(i));
            profile.merge(
                    op.profileKey(),
                    new GpuBackend.ProfileEntry(op.profileKey(), 1, ms, op.weightBytes()),
                    (a, b) -> new GpuBackend.ProfileEntry(
                            a.key(), a.calls() + 1, a.millis() + b.millis(), a.weightBytes()));
        }
    }

    void setProfiling(boolean on) {
        awaitAll(); // a run still out was not profiled, or was
        profiling = on;
    }

    /** Leaves the operations whose profile key {@code keys} accepts (null: none) out of every later launch. */
    void setOmitted(Predicate<String> keys) {
        awaitAll(); // the graphs dropped next may still run
        omitted = keys;
        graphs.close(); // graphs captured with other omissions
    }

    /** The profile gathered since the last call, the most expensive kinds first; clears it. */
    List<GpuBackend.ProfileEntry> takeProfile() {
        List<GpuBackend.ProfileEntry> out = new ArrayList<>(profile.values());
        out.sort((a, b) -> Double.compare(b.millis(), a.millis()));
        profile.clear();
        return out;
    }

    long captures() {
        return captures;
    }

    long replays() {
        return replays;
    }

    long eagerRuns() {
        return eagerRuns;
    }

    int graphsCached() {
        return graphs.size();
    }

    double graphMillis() {
        return graphMillis;
    }

    /** Device time of the copies around replayed graphs of runs issued without waiting. */
    double copyMillis() {
        return copyMillis;
    }

    /** Host time from each run's start until all its work was issued (the wait for it not included). */
    double launchMillis() {
        return launchNanos / 1e6;
    }

    /** Host time spent waiting for runs' streams. */
    double waitMillis() {
        return waitNanos / 1e6;
    }

    @Override
    public void close() {
        Cleanup.all(
                this::awaitAll,
                graphs::close,
                () -> {
                    for (Slot slot : slots) {
                        if (slot != null) {
                            slot.close();
                        }
                    }
                },
                () -> profileEvents.forEach(Event::close),
                () -> {
                    if (graphStart != null) {
                        graphStart.close();
                        graphEnd.close();
                    }
                },
                () -> {
                    if (readStaging != null) {
                        readStaging.close();
                    }
                });
    }
}
