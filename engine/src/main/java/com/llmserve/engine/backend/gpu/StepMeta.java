package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Batch;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.DeviceBuffer;
import com.llmserve.gpu.PinnedBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The batch data kernels read from device memory, so that a captured graph replays with a new
 * batch: one int32 buffer of fixed regions (their addresses are what graphs bake in), filled on
 * the host in pinned memory and copied over before each run of a step's kernels.
 *
 * <pre>
 *   positions[rows] slots[rows] tableOffsets[rows] seqLast[rows] ints[intCapacity] tiles[2 rows]
 *   tables[tableEntries] slots1[rows] tables1[tableEntries]
 * </pre>
 * {@code slots1} and {@code tables1} are KV group 1's (the windowed layers of a model that keeps
 * them apart, see {@code KvStorage}): its tables lie at the same offsets as group 0's, so
 * {@code tableOffsets} serves both.
 * Padding rows (past the batch, up to the bucket) get position 0 and slot -1: kernels compute them
 * harmlessly, attention writes nothing for them and outputs zeros.
 */
final class StepMeta implements AutoCloseable {

    enum Region {
        POSITIONS,
        SLOTS,
        TABLE_OFFSETS,
        SEQ_LAST,
        /** Per-operation int data, in recording order: embedded ids, gathered row indices, span starts. */
        INTS,
        /** (first row, row count) of each prompt tile of the tiled attention kernel. */
        TILES,
        TABLES,
        /** KV group 1's slots and tables. */
        SLOTS_1,
        TABLES_1;

        /** Where the slots of KV group {@code group} are. */
        static Region slots(int group) {
            return switch (group) {
                case 0 -> SLOTS;
                case 1 -> SLOTS_1;
                default -> throw new IllegalArgumentException("KV group " + group + ": the GPU backend has 2");
            };
        }

        static Region tables(int group) {
            return switch (group) {
                case 0 -> TABLES;
                case 1 -> TABLES_1;
                default -> throw new IllegalArgumentException("KV group " + group + ": the GPU backend has 2");
            };
        }
    }

    private final Device device;
    private int rows;
    private int ints;
    private int tableEntries;
    private DeviceBuffer buffer;
    private PinnedBuffer staging;

    StepMeta(Device device) {
        this.device = device;
    }

    /**
     * Grows the regions to at least these sizes.
     *
     * @return true when the device buffer moved (graphs that read it are stale)
     */
    /** Whether {@link #ensure} would free the buffers for larger ones. */
    boolean moves(int rows, int ints, int tableEntries) {
        return buffer != null && (rows > this.rows || ints > this.ints || tableEntries > this.tableEntries);
    }

    boolean ensure(int rows, int ints, int tableEntries) {
        if (buffer != null && rows <= this.rows && ints <= this.ints && tableEntries <= this.tableEntries) {
            return false;
        }
        int r = Math.max(rows, this.rows);
        int g = ints > this.ints ? Math.max(ints, this.ints + this.ints / 2) : this.ints;
        int t = tableEntries > this.tableEntries
                ? Math.max(tableEntries, Math.max(1024, this.tableEntries + this.tableEntries / 2))
                : this.tableEntries;
        long bytes = (7L * r + g + 2L * t) * Integer.BYTES;
        DeviceBuffer next = device.allocate(bytes);
        PinnedBuffer nextStaging;
        try {
            nextStaging = device.allocatePinned(bytes);
        } catch (RuntimeException e) {
            next.close();
            throw e;
        }
        close();
        buffer = next;
        staging = nextStaging;
        this.rows = r;
        this.ints = g;
        this.tableEntries = t;
        return true;
    }

    int rowCapacity() {
        return rows;
    }

    int intCapacity() {
        return ints;
    }

    DeviceBuffer buffer() {
        return buffer;
    }

    /** Byte offset of a region in {@link #buffer()}. */
    long offset(Region region) {
        long index =
                switch (region) {
                    case POSITIONS -> 0;
                    case SLOTS -> rows;
                    case TABLE_OFFSETS -> 2L * rows;
                    case SEQ_LAST -> 3L * rows;
                    case INTS -> 4L * rows;
                    case TILES -> 4L * rows + ints;
                    case TABLES -> 6L * rows + ints;
                    case SLOTS_1 -> 6L * rows + ints + tableEntries;
                    case TABLES_1 -> 7L * rows + ints + tableEntries;
                };
        return index * Integer.BYTES;
    }

    /** Block-table entries the batch's attention reads: for each sequence, the blocks up to its last position. */
    static int tableEntries(Batch batch) {
        long total = 0;
        for (int last : batch.lastPositions()) {
            total += last < 0 ? 0 : last / batch.blockSize() + 1;
        }
        return Math.toIntExact(total);
    }

    /**
     * Writes a step's batch data to the staging memory.
     *
     * @param batch      the step's batch, or null when no operation reads positions or the cache
     * @param ints       the step's int data (ids, gathered rows, span starts), {@code intCount} of them
     * @param paddedRows rows the kernels run over (a bucket's size); rows past the batch are padding
     * @param tiles      (first row, row count) pairs of the step's attention tiles, {@code tileCount} of them
     * @return the bytes to copy to the device
     */
    long fill(Batch batch, int[] ints, int intCount, int paddedRows, int[] tiles, int tileCount) {
        MemorySegment m = staging.segment();
        long end = 0;
        if (batch != null) {
            int[] last = batch.lastPositions();
            int[] tableOffset = new int[last.length];
            if (batch.groups() > 2) {
                throw new IllegalArgumentException(batch + ": the GPU backend has 2 KV groups");
            }
            boolean second = batch.groups() > 1;
            long tables = offset(Region.TABLES);
            long tables1 = offset(Region.TABLES_1);
            int at = 0;
            for (int s = 0; s < last.length; s++) {
                tableOffset[s] = at;
                int blocks = last[s] < 0 ? 0 : last[s] / batch.blockSize() + 1;
                MemorySegment.copy(batch.blockTable(s), 0, m, ValueLayout.JAVA_INT, tables + 4L * at, blocks);
                if (second) {
                    MemorySegment.copy(batch.blockTable(1, s), 0, m, ValueLayout.JAVA_INT, tables1 + 4L * at, blocks);
                }
                at += blocks;
            }
            int real = Math.min(batch.size(), paddedRows);
            for (int t = 0; t < paddedRows; t++) {
                boolean row = t < real;
                int seq = row ? batch.sequenceOf(t) : 0;
                m.set(ValueLayout.JAVA_INT, offset(Region.POSITIONS) + 4L * t, row ? batch.position(t) : 0);
                m.set(ValueLayout.JAVA_INT, offset(Region.SLOTS) + 4L * t, row ? batch.slotOfRow(t) : -1);
                m.set(ValueLayout.JAVA_INT, offset(Region.TABLE_OFFSETS) + 4L * t, row ? tableOffset[seq] : 0);
                m.set(ValueLayout.JAVA_INT, offset(Region.SEQ_LAST) + 4L * t, row ? last[seq] : 0);
                if (second) {
                    m.set(ValueLayout.JAVA_INT, offset(Region.SLOTS_1) + 4L * t, row ? batch.slotOfRow(1, t) : -1);
                }
            }
            end = second ? tables1 + 4L * at : tables + 4L * at;
        }
        if (tileCount > 0) {
            MemorySegment.copy(tiles, 0, m, ValueLayout.JAVA_INT, offset(Region.TILES), 2 * tileCount);
            end = Math.max(end, offset(Region.TILES) + 8L * tileCount);
        }
        if (intCount > 0) {
            MemorySegment.copy(ints, 0, m, ValueLayout.JAVA_INT, offset(Region.INTS), intCount);
            end = Math.max(end, offset(Region.INTS) + 4L * intCount);
        }
        return end;
    }

    MemorySegment staging() {
        return staging.segment();
    }

    /**
     * Tiles of the tiled attention kernel: runs of consecutive rows of one sequence among the first
     * {@code n}, cut every {@code rowsPerTile} rows, as (first row, row count) pairs.
     */
    static int[] tiles(Batch batch, int n, int rowsPerTile) {
        int[] out = new int[2 * n];
        int count = 0;
        int t = 0;
        while (t < n) {
            int seq = batch.sequenceOf(t);
            int end = t;
            while (end < n && batch.sequenceOf(end) == seq && end - t < rowsPerTile) {
                end++;
            }
            out[2 * count] = t;
            out[2 * count + 1] = end - t;
            count++;
            t = end;
        }
        return Arrays.copyOf(out, 2 * count);
    }

    @Override
    public void close() {
        if (buffer != null) {
            buffer.close();
            buffer = null;
        }
        if (staging != null) {
            staging.close();
            staging = null;
        }
    }
}
