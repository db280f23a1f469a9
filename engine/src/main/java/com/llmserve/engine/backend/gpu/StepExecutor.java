package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Cleanup;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.Event;
import com.llmserve.gpu.Graph;
import com.llmserve.gpu.GraphCapture;
import com.llmserve.gpu.PinnedBuffer;
import com.llmserve.gpu.Stream;
import com.llmserve.gpu.StreamLease;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Runs what a step recorded, at its sync points, on one leased stream: the batch data goes to the
 * metadata buffer, then the kernels run as a replayed graph (a graphable list: captured on its first
 * run), one by one (prompts, BLAS products), or one by one between events when profiling; then
 * the copies back; then the stream is waited for, so runs never overlap and the lease goes back idle.
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
            if (!step.isEmpty()) {
                if (profiling) {
                    launchProfiled(r);
                } else if (graphable(r)) {
                    Graph g = cachedGraph(r);
                    if (g == null) {
                        beginCapture(r);
                        launchAll(r, r.ops());
                        g = endCapture(r);
                    }
                    launchGraph(r, g);
                } else {
                    launchEagerly(r, r.ops());
                }
            }
            finish(r, copyBack);
        }
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
        private GraphCapture capture;
        private boolean replayed;
        private boolean profiled;
        private final long begun = System.nanoTime();

        private Run(StepRecorder step, StreamLease lease) {
            this.step = step;
            this.lease = lease;
            this.stream = lease.stream();
            this.launch = new Launch(stream, workspace);
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

    /** Begins a run of what {@code step} recorded (which may be nothing). */
    Run begin(StepRecorder step) {
        StreamLease lease;
        try {
            lease = HostTransfer.lease(device);
        } catch (RuntimeException e) {
            step.clear(); // as after a run that failed: nothing recorded is run later by mistake
            throw e;
        }
        Run r = new Run(step, lease);
        try {
            if (!step.isEmpty()) {
                long bytes = step.fillMeta();
                StepMeta meta = workspace.meta();
                r.stream.copyToDevice(meta.staging().asSlice(0, bytes), meta.buffer());
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

    /** Launches {@code g} on {@code r}'s stream, timed by events. */
    void launchGraph(Run r, Graph g) {
        if (graphStart == null) {
            graphStart = device.createEvent();
            graphEnd = device.createEvent();
        }
        r.stream.record(graphStart);
        g.launch(r.stream);
        r.stream.record(graphEnd);
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
        profiling = on;
    }

    /** Leaves the operations whose profile key {@code keys} accepts (null: none) out of every later launch. */
    void setOmitted(Predicate<String> keys) {
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
                graphs::close,
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
