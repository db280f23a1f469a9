package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.backend.gpu.Scratch.Slot;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.DeviceArch;
import com.llmserve.gpu.DeviceBuffer;
import com.llmserve.gpu.Vendor;
import com.llmserve.kernels.Kernel;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The device buffers operations reach without naming them: scratch slots, the step metadata and
 * the rope tables. Each grows on demand and is kept; a growth moves a buffer whose address
 * captured graphs bake in, so every growth bumps {@link #generation()}, and the graph cache keys
 * graphs by it: a stale graph is never found again, with no invalidation call anywhere.
 *
 * <p>Sized while operations are recorded. Steps may still run then (issued without waiting): a
 * growth first waits for them ({@link #beforeMoving}), since it frees the buffer they read.
 */
final class Workspace implements AutoCloseable {

    private final Device device;
    private final GpuOptions options;
    private final HostTransfer transfer;
    private final Scratch scratch;
    private final StepMeta meta;
    private final Map<RopeTable.Key, RopeTable> ropeTables = new HashMap<>();
    /** Attention sinks by their values: uploaded once, never moved (no growth, no new generation). */
    private final Map<SinkKey, DeviceBuffer> sinks = new HashMap<>();

    private record SinkKey(float[] values) {
        @Override
        public boolean equals(Object o) {
            return o instanceof SinkKey k && Arrays.equals(values, k.values);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(values);
        }
    }

    private long generation;
    private final boolean dependentLaunches;
    private Runnable awaitRuns = () -> {};

    Workspace(Device device, GpuOptions options, HostTransfer transfer) {
        this.device = device;
        this.options = options;
        this.transfer = transfer;
        this.scratch = new Scratch(device);
        this.meta = new StepMeta(device);
        this.dependentLaunches = options.dependentLaunches()
                && dependentLaunchesRun(device.info().arch());
    }

    /**
     * Whether kernels that wait for their predecessor may launch before it ends on {@code arch}: an
     * NVIDIA device of compute capability 9, which loads the sm_90 cubins, whose kernels wait (the
     * sm_80 cubins and the PTX that later GPUs compile carry no wait, and AMD has no such launch).
     */
    static boolean dependentLaunchesRun(DeviceArch arch) {
        return arch.vendor() == Vendor.NVIDIA && arch.major() == 9;
    }

    /** Whether {@code kernel} launches as a dependent launch here. */
    boolean launchesDependent(Kernel kernel) {
        return dependentLaunches && kernel.module().waitsForPredecessor();
    }

    Device device() {
        return device;
    }

    GpuOptions options() {
        return options;
    }

    /** Runs {@code awaitRuns} before a growth frees a buffer: the steps still out may read it. */
    void beforeMoving(Runnable awaitRuns) {
        this.awaitRuns = awaitRuns;
    }

    /** Counts the growths of every buffer here: graphs captured at an older generation are stale. */
    long generation() {
        return generation;
    }

    /** Makes {@code slot} hold at least {@code bytes}. */
    void reserve(Slot slot, long bytes) {
        if (scratch.moves(slot, bytes)) {
            awaitRuns.run();
        }
        if (scratch.ensure(slot, bytes)) {
            generation++;
        }
    }

    DeviceBuffer scratch(Slot slot) {
        return scratch.get(slot);
    }

    /** Makes the metadata regions hold at least this many rows, ints and block-table entries. */
    void reserveMeta(int rows, int ints, int tableEntries) {
        if (meta.moves(rows, ints, tableEntries)) {
            awaitRuns.run(); // the device's copy and a run's staging both go
        }
        if (meta.ensure(rows, ints, tableEntries)) {
            generation++;
        }
    }

    StepMeta meta() {
        return meta;
    }

    /** The table of {@code rope}, covering positions {@code [0, positions)}. */
    RopeTable ropeTable(Rope rope, int positions) {
        RopeTable table = ropeTables.computeIfAbsent(RopeTable.Key.of(rope), key -> new RopeTable(rope));
        if (table.moves(positions)) {
            awaitRuns.run();
        }
        if (table.ensure(positions, transfer)) {
            generation++;
        }
        return table;
    }

    /** Per-head attention sinks on the device, one buffer per distinct set of values. */
    DeviceBuffer sinks(float[] values) {
        return sinks.computeIfAbsent(
                new SinkKey(values.clone()),
                k -> transfer.newBuffer(MemorySegment.ofArray(k.values()), (long) k.values().length * Float.BYTES));
    }

    @Override
    public void close() {
        try {
            scratch.close();
            meta.close();
        } finally {
            ropeTables.values().forEach(RopeTable::close);
            ropeTables.clear();
            sinks.values().forEach(DeviceBuffer::close);
            sinks.clear();
        }
    }
}
