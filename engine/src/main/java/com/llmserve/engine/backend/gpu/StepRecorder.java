package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The operations of the open step not yet run, with the batch data their kernels will read: the
 * step's batch, its int region (ids, row indices, span starts) and attention tiles. A sync point
 * runs what is recorded ({@link StepExecutor}) and {@link #clear()}s it; the batch stays until the
 * step ends.
 *
 * <p>Rows are padded to a bucket while the step may be captured as a graph: every batch of a
 * bucket then records an equal list of operations and replays one graph.
 */
final class StepRecorder {

    /** Batch-size buckets steps are padded to (up to the configured limits). */
    private static final int[] BUCKETS = {1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256};

    private final Workspace workspace;
    private final GpuOptions options;
    private final List<DeviceOp> ops = new ArrayList<>();
    private Batch batch;
    private int[] ints = new int[64];
    private int intCount;
    private int rows;
    private int[] tiles;
    private boolean graphable = true;

    StepRecorder(Workspace workspace) {
        this.workspace = workspace;
        this.options = workspace.options();
    }

    /** Starts a step over {@code batch} (null for an encoder pass). */
    void begin(Batch batch) {
        clear();
        this.batch = batch;
        if (batch != null) {
            workspace.reserveMeta(0, 0, StepMeta.tableEntries(batch));
        }
    }

    /** Ends the step: nothing recorded remains. */
    void end() {
        clear();
        batch = null;
    }

    /** The rows an operation of {@code n} rows runs over, on activations of {@code capacity} rows. */
    int padded(int n, int capacity) {
        if (!options.graphs() || n > options.maxGraphRows() || n >= options.gemmMinRows()) {
            return n;
        }
        for (int b : BUCKETS) {
            if (b >= n) {
                return b < options.gemmMinRows() ? Math.min(b, capacity) : n;
            }
        }
        return n;
    }

    /**
     * Appends {@code count} ints (then zeros up to {@code padTo}) to the step's int region and
     * returns where they start.
     */
    int addInts(int[] values, int count, int padTo) {
        workspace.reserveMeta(0, intCount + padTo, 0);
        if (ints.length < intCount + padTo) {
            ints = Arrays.copyOf(ints, Math.max(intCount + padTo, 2 * ints.length));
        }
        int offset = intCount;
        System.arraycopy(values, 0, ints, offset, count);
        Arrays.fill(ints, offset + count, offset + padTo, 0);
        intCount += padTo;
        return offset;
    }

    /** The attention tiles of the step; one tiling per step (every layer tiles the same rows). */
    void tiles(int[] t) {
        if (tiles != null && !Arrays.equals(tiles, t)) {
            throw new GpuBackendException("two tilings of the attention rows in one step");
        }
        tiles = t;
    }

    /**
     * Records {@code op}, which computes {@code n} real rows ({@code op.n()} with padding). A step
     * of more rows than {@link GpuOptions#maxGraphRows()} runs without a graph; a decoder step's rows
     * are its batch's, so a mixture's ops over its (token, expert) pairs, rows of their own, count
     * by tokens.
     */
    void record(DeviceOp op, int n) {
        op.reserve(workspace);
        workspace.reserveMeta(op.n(), 0, 0);
        Fusions.append(ops, op);
        rows = Math.max(rows, op.n());
        int stepRows = batch != null ? batch.size() : n;
        if (stepRows > options.maxGraphRows() || !op.graphable()) {
            graphable = false;
        }
    }

    Batch batch() {
        return batch;
    }

    boolean isEmpty() {
        return ops.isEmpty();
    }

    List<DeviceOp> ops() {
        return ops;
    }

    /** Whether the recorded operations may run as one captured graph. */
    boolean graphable() {
        return graphable;
    }

    /** Writes the recorded batch data to the metadata staging; returns its bytes. */
    long fillMeta() {
        return workspace.meta().fill(batch, ints, intCount, rows, tiles, tiles == null ? 0 : tiles.length / 2);
    }

    /** Drops what is recorded (it ran, or failed); the step's batch stays. */
    void clear() {
        ops.clear();
        intCount = 0;
        rows = 0;
        tiles = null;
        graphable = true;
    }
}
