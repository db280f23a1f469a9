package com.llmserve.engine.backend.gpu;

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
    private Event graphStart;
    private Event graphEnd;
    private boolean profiling;
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
        try (StreamLease lease = HostTransfer.lease(device)) {
            Stream s = lease.stream();
            boolean replayed = false;
            boolean profiled = false;
            if (!step.isEmpty()) {
                long bytes = step.fillMeta();
                StepMeta meta = workspace.meta();
                s.copyToDevice(meta.staging().asSlice(0, bytes), meta.buffer());
                Launch l = new Launch(s, workspace);
                if (profiling) {
                    launchProfiled(s, l, step.ops());
                    profiled = true;
                } else if (workspace.options().graphs() && step.graphable()) {
                    replay(s, l, step.ops());
                    replayed = true;
                } else {
                    step.ops().forEach(op -> op.launch(l));
                    eagerRuns++;
                }
            }
            if (copyBack != null) {
                copyBack.accept(s);
            }
            s.synchronize();
            if (replayed) {
                graphMillis += graphEnd.elapsedMillisSince(graphStart);
            }
            if (profiled) {
                account(step.ops());
            }
        } finally {
            step.clear();
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

    private void replay(Stream s, Launch l, List<DeviceOp> ops) {
        long generation = workspace.generation();
        Graph g = graphs.get(generation, ops);
        if (g == null) {
            try (GraphCapture capture = s.beginCapture()) {
                ops.forEach(op -> op.launch(l));
                g = capture.end();
            }
            graphs.put(generation, ops, g);
            captures++;
        }
        if (graphStart == null) {
            graphStart = device.createEvent();
            graphEnd = device.createEvent();
        }
        s.record(graphStart);
        g.launch(s);
        s.record(graphEnd);
        replays++;
    }

    private void launchProfiled(Stream s, Launch l, List<DeviceOp> ops) {
        while (profileEvents.size() <= ops.size()) {
            profileEvents.add(device.createEvent());
        }
        s.record(profileEvents.getFirst());
        for (int i = 0; i < ops.size(); i++) {
            ops.get(i).launch(l);
            s.record(profileEvents.get(i + 1));
        }
        eagerRuns++;
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
