package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.Op;
import com.llmserve.engine.backend.Pooling;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.backend.Spans;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.backend.cpu.CpuTensor;
import com.llmserve.engine.backend.gpu.DeviceOp.Add;
import com.llmserve.engine.backend.gpu.DeviceOp.AddBias;
import com.llmserve.engine.backend.gpu.DeviceOp.AddRmsNorm;
import com.llmserve.engine.backend.gpu.DeviceOp.Attention;
import com.llmserve.engine.backend.gpu.DeviceOp.Embed;
import com.llmserve.engine.backend.gpu.DeviceOp.Gather;
import com.llmserve.engine.backend.gpu.DeviceOp.LayerNorm;
import com.llmserve.engine.backend.gpu.DeviceOp.Matmul;
import com.llmserve.engine.backend.gpu.DeviceOp.RmsNorm;
import com.llmserve.engine.backend.gpu.DeviceOp.RotaryEmbedding;
import com.llmserve.engine.backend.gpu.DeviceOp.SwiGlu;
import com.llmserve.engine.backend.gpu.DeviceOp.TopK;
import com.llmserve.engine.backend.gpu.Scratch.Slot;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufTensor;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.DeviceBuffer;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.Event;
import com.llmserve.gpu.GpuCallException;
import com.llmserve.gpu.Graph;
import com.llmserve.gpu.GraphCapture;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.gpu.PinnedBuffer;
import com.llmserve.gpu.Stream;
import com.llmserve.gpu.StreamLease;
import com.llmserve.gpu.Vendor;
import com.llmserve.kernels.Kernel;
import com.llmserve.kernels.KernelModuleId;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The compute backend on one GPU (CUDA or HIP, through {@code gpu-runtime}). Weights are copied to
 * device memory once (Q4_0/Q8_0 repacked for aligned loads; types without kernels dequantized to
 * F16), activations and the F16 KV cache live there, and only logits come back.
 *
 * <p><b>Steps and graphs.</b> Operations are not launched when called: they are recorded, with
 * the batch data they need, until a result must reach the host ({@link #read}) or a new step
 * starts ({@link #embed}, another batch). The recorded step then runs on one leased stream: its
 * batch data (tokens, positions, slots, block tables) is copied into a fixed metadata buffer, and
 * its kernels run. A step of at most {@link GpuOptions#maxGraphRows()} rows is padded to a bucket
 * (1, 2, 4, 8, ...) and captured as a graph keyed by its operation list; a later step with an equal
 * list (the same model, bucket and buffers: every decode step of a bucket) replays the graph with
 * one launch. Padding rows get slot -1: they write no cache and attend to nothing.
 *
 * <p>One forward pass at a time, as {@link Backend} says; every step waits for its stream before
 * returning its lease, so steps never overlap.
 */
public final class GpuBackend implements Backend {

    private static final System.Logger LOG = System.getLogger(GpuBackend.class.getName());

    /** Batch-size buckets steps are padded to (up to the configured limits). */
    private static final int[] BUCKETS = {1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256};

    private static final int MAX_ATTENTION_SPLITS = 32;
    private static final int ATTENTION_MAX_QDIM = 2048;
    private static final int ATTENTION_MAX_GROUP = 16;

    private final Device device;
    private final DevicePool ownedPool;
    private final GpuOptions options;
    private final String name;
    private final Scratch scratch;
    private final StepMeta meta;
    private final Map<RopeTable.Key, RopeTable> ropeTables = new HashMap<>();
    private final LinkedHashMap<List<DeviceOp>, Graph> graphs;
    private PinnedBuffer uploadStaging;
    private PinnedBuffer readStaging;
    private long weightBytes;
    private long halfBytes;
    /** What the half copies may take: their share of the memory free when this backend opened. */
    private final long halfBudget;

    private boolean halfWeightsExhausted;
    private long captures;
    private long replays;
    private long eagerSteps;
    private double graphMillis;
    private boolean closed;
    private Event graphStart;
    private Event graphEnd;
    private boolean profiling;
    private final List<Event> profileEvents = new ArrayList<>();
    private final Map<String, ProfileEntry> profile = new LinkedHashMap<>();

    // The step being recorded.
    private final List<DeviceOp> ops = new ArrayList<>();
    private int[] stepTokens;
    private int stepTokenCount;
    private Batch stepBatch;
    private final Set<GpuKvStorage> stepValidated = Collections.newSetFromMap(new IdentityHashMap<>());
    private int[] stepInts = new int[64];
    private int stepIntCount;
    private int stepRows;
    private int[] stepTiles;
    private boolean stepGraphable = true;

    private GpuBackend(Device device, DevicePool ownedPool, GpuOptions options) {
        this.device = device;
        this.ownedPool = ownedPool;
        this.options = options;
        this.name = (device.info().vendor() == Vendor.NVIDIA ? "cuda:" : "hip:")
                + device.info().ordinal();
        this.scratch = new Scratch(device);
        this.meta = new StepMeta(device);
        this.graphs = new LinkedHashMap<>(16, 0.75f, true);
        this.halfBudget = options.halfWeights()
                ? (long) (options.halfWeightShare() * device.memoryInfo().free())
                : 0;
        // Load every code object now: module loading must not happen inside a graph capture.
        for (KernelModuleId id : KernelModuleId.values()) {
            device.modules().module(id);
        }
        meta.ensure(64, 128, 1024);
    }

    /** A backend on {@code device}; the caller keeps owning the device's pool. */
    public static GpuBackend open(Device device, GpuOptions options) {
        return new GpuBackend(device, null, options);
    }

    /** A backend that closes {@code pool} when it is closed (the pool was opened for it alone). */
    static GpuBackend owning(DevicePool pool, Device device, GpuOptions options) {
        return new GpuBackend(device, pool, options);
    }

    public Device device() {
        return device;
    }

    public GpuOptions options() {
        return options;
    }

    /**
     * Counters for reports and tests.
     *
     * @param weightBytes     device bytes of the weights as products read them on the GEMV path
     * @param halfWeightBytes device bytes of the half copies ({@link GpuOptions#halfWeights()})
     * @param graphMillis     device time of every graph replay, from events around each launch
     */
    public record Stats(
            long weightBytes,
            long halfWeightBytes,
            long graphCaptures,
            long graphReplays,
            long eagerSteps,
            int graphsCached,
            double graphMillis) {}

    public Stats stats() {
        return new Stats(weightBytes, halfBytes, captures, replays, eagerSteps, graphs.size(), graphMillis);
    }

    /**
     * Device time of one kind of operation while profiling.
     *
     * @param weightBytes weight bytes read per call (matrix products), for bandwidth
     */
    public record ProfileEntry(String key, long calls, double millis, long weightBytes) {}

    /**
     * Profiling on: steps launch their kernels one operation at a time (no graphs) with events
     * around each, and {@link #takeProfile()} reports device time per kind of operation. Off by
     * default: the events cost a record per operation.
     */
    public void setProfiling(boolean on) {
        flush(null, 0, null, 0);
        profiling = on;
    }

    /** The profile gathered since the last call, the most expensive kinds first; clears it. */
    public List<ProfileEntry> takeProfile() {
        List<ProfileEntry> out = new ArrayList<>(profile.values());
        out.sort((a, b) -> Double.compare(b.millis(), a.millis()));
        profile.clear();
        return out;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean supports(Op op, GgmlType type) {
        // Types without kernels of their own are dequantized to F16 at upload.
        return CpuTensor.supports(type);
    }

    // ---------------------------------------------------------------- uploads

    @Override
    public Weight uploadMatrix(String name, List<GgufTensor> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException(name + ": no parts");
        }
        long rowLength = parts.getFirst().rowLength();
        if (rowLength > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(name + ": rows of " + rowLength + " elements are too long");
        }
        int cols = (int) rowLength;
        List<WeightFormat> formats = new ArrayList<>();
        List<WeightFormat.Activation> rounding = new ArrayList<>();
        for (GgufTensor t : parts) {
            if (t.rowLength() != cols) {
                throw new IllegalArgumentException(
                        name + ": fused parts have different row lengths " + cols + " and " + t.rowLength());
            }
            if (!CpuTensor.supports(t.type())) {
                CpuTensor.of(t); // throws the typed unsupported-type error
            }
            formats.add(formatFor(t.type(), cols));
            rounding.add(WeightFormat.activationOf(t.type()));
        }
        List<GpuWeight.Band> bands = new ArrayList<>();
        try {
            long firstRow = 0;
            int i = 0;
            while (i < parts.size()) {
                int j = i;
                long rows = 0;
                while (j < parts.size() && formats.get(j) == formats.get(i) && rounding.get(j) == rounding.get(i)) {
                    rows += parts.get(j).rows();
                    j++;
                }
                bands.add(uploadBand(formats.get(i), rounding.get(i), parts.subList(i, j), firstRow, rows, cols));
                firstRow += rows;
                i = j;
            }
        } catch (RuntimeException e) {
            bands.forEach(b -> b.data().close());
            throw e;
        }
        GpuWeight w = GpuWeight.matrix(this, name, parts.getFirst().type(), cols, bands);
        weightBytes += w.byteSize();
        return w;
    }

    /**
     * The device format for a type: its own where kernels exist, else F16 (dequantized on the
     * host). Rows whose length is not a multiple of 8 do not fit the vector loads of the GEMV and
     * gather kernels: they are kept as F32 and always go through BLAS.
     */
    private static WeightFormat formatFor(GgmlType type, int cols) {
        if (cols % 8 != 0) {
            return WeightFormat.F32;
        }
        return WeightFormat.of(type).orElse(WeightFormat.F16);
    }

    private GpuWeight.Band uploadBand(
            WeightFormat f,
            WeightFormat.Activation activation,
            List<GgufTensor> parts,
            long firstRow,
            long rows,
            int cols) {
        long blocksPerRow = cols / 32;
        long scalesOffset = 0;
        long bytes;
        if (f.repacked()) {
            long quantBytes = rows * blocksPerRow * f.repackedBlockBytes();
            scalesOffset = (quantBytes + 255) / 256 * 256;
            bytes = scalesOffset + rows * blocksPerRow * Short.BYTES;
        } else {
            bytes = f.type().byteSize(rows * cols);
        }
        DeviceBuffer data = device.allocate(bytes);
        try {
            long row = 0;
            for (GgufTensor t : parts) {
                if (t.type() == f.type() && f.repacked()) {
                    repack(t, f, data, row * blocksPerRow, scalesOffset);
                } else if (t.type() == f.type()) {
                    copyToDevice(
                            t.data().asSlice(0, t.byteSize()), data, f.type().byteSize(row * cols));
                } else {
                    convertOnHost(t, f, data, f.type().byteSize(row * cols));
                }
                row += t.rows();
            }
        } catch (RuntimeException e) {
            data.close();
            throw e;
        }
        DeviceBuffer half = null;
        if (options.halfWeights() && !halfWeightsExhausted && f != WeightFormat.F16 && f != WeightFormat.F32) {
            half = halfCopy(f, data, scalesOffset, rows, cols);
        }
        return new GpuWeight.Band(f, activation, firstRow, rows, data, scalesOffset, half);
    }

    /** The band dequantized to half on the device, or null once device memory has run out for them. */
    private DeviceBuffer halfCopy(WeightFormat f, DeviceBuffer data, long scalesOffset, long rows, int cols) {
        if (halfBytes + rows * cols * Short.BYTES > halfBudget) {
            halfWeightsExhausted = true;
            LOG.log(
                    System.Logger.Level.INFO,
                    "{0}: half weight copies stop at {1} bytes, their share ({2}) of the free device"
                            + " memory; the remaining weights dequantize per product",
                    name,
                    halfBytes,
                    options.halfWeightShare());
            return null;
        }
        DeviceBuffer half;
        try {
            half = device.allocate(rows * cols * Short.BYTES);
        } catch (GpuCallException e) {
            if (!e.isOutOfMemory()) {
                throw e;
            }
            halfWeightsExhausted = true;
            LOG.log(
                    System.Logger.Level.WARNING,
                    "{0}: out of device memory for half weight copies after {1} bytes;"
                            + " the remaining weights dequantize per product",
                    name,
                    halfBytes);
            return null;
        }
        try (StreamLease lease = lease()) {
            Stream s = lease.stream();
            s.launch(
                    device.function(f.dequantF16Kernel()),
                    LaunchConfig.covering(rows * cols / 8, Launcher.THREADS),
                    KernelArgs.of()
                            .pointer(data)
                            .pointer(data, scalesOffset)
                            .pointer(half)
                            .i32(0)
                            .i32(Math.toIntExact(rows))
                            .i32(cols));
            s.synchronize();
        } catch (RuntimeException e) {
            half.close();
            throw e;
        }
        halfBytes += half.byteSize();
        return half;
    }

    /** GGML Q4_0/Q8_0 blocks to quants + scales, on the device (the raw blocks go up first). */
    private void repack(GgufTensor t, WeightFormat f, DeviceBuffer data, long firstBlock, long scalesOffset) {
        long blocks = t.elementCount() / 32;
        try (DeviceBuffer raw = device.allocate(t.byteSize())) {
            copyToDevice(t.data().asSlice(0, t.byteSize()), raw, 0);
            Kernel kernel = f == WeightFormat.Q4_0 ? Kernel.REPACK_Q4_0 : Kernel.REPACK_Q8_0;
            try (StreamLease lease = lease()) {
                Stream s = lease.stream();
                s.launch(
                        device.function(kernel),
                        LaunchConfig.covering(blocks, Launcher.THREADS),
                        KernelArgs.of()
                                .pointer(raw)
                                .pointer(data, firstBlock * f.repackedBlockBytes())
                                .pointer(data, scalesOffset + firstBlock * Short.BYTES)
                                .i64(blocks));
                s.synchronize();
            }
        }
    }

    /** Types without kernels: dequantized row by row as the CPU backend does, stored as F16 or F32. */
    private void convertOnHost(GgufTensor t, WeightFormat f, DeviceBuffer data, long offset) {
        CpuTensor src = CpuTensor.of(t);
        int cols = src.cols();
        int elementBytes = f == WeightFormat.F16 ? Short.BYTES : Float.BYTES;
        long rowsPerChunk = Math.max(1, options.uploadChunkBytes() / ((long) cols * elementBytes));
        float[] row = new float[cols];
        for (long r0 = 0; r0 < src.rows(); r0 += rowsPerChunk) {
            int rows = (int) Math.min(rowsPerChunk, src.rows() - r0);
            MemorySegment chunk;
            if (f == WeightFormat.F16) {
                short[] halves = new short[rows * cols];
                for (int r = 0; r < rows; r++) {
                    src.dequantizeRow(r0 + r, row, 0);
                    for (int c = 0; c < cols; c++) {
                        halves[r * cols + c] = Float.floatToFloat16(row[c]);
                    }
                }
                chunk = MemorySegment.ofArray(halves);
            } else {
                float[] floats = new float[rows * cols];
                for (int r = 0; r < rows; r++) {
                    src.dequantizeRow(r0 + r, floats, r * cols);
                }
                chunk = MemorySegment.ofArray(floats);
            }
            copyToDevice(chunk, data, offset + r0 * cols * elementBytes);
        }
    }

    @Override
    public Weight uploadTable(GgufTensor tensor) {
        // one tensor, one band; rows not a multiple of 8 long are F32, gathered element by element
        return uploadMatrix(tensor);
    }

    @Override
    public Weight uploadVector(String name, List<GgufTensor> parts) {
        long total = parts.stream().mapToLong(GgufTensor::elementCount).sum();
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(name + " is too large for a vector: " + total);
        }
        float[] values = new float[(int) total];
        int at = 0;
        for (GgufTensor t : parts) {
            CpuTensor c = CpuTensor.of(t.name(), t.type(), t.data(), 1, (int) t.elementCount());
            c.dequantizeRow(0, values, at);
            at += (int) t.elementCount();
        }
        DeviceBuffer buffer = uploadArray(MemorySegment.ofArray(values), (long) values.length * Float.BYTES);
        weightBytes += buffer.byteSize();
        return GpuWeight.vector(this, name, values.length, buffer);
    }

    /** A new device buffer holding the first {@code bytes} of {@code src} (any memory: staged through pinned). */
    DeviceBuffer uploadArray(MemorySegment src, long bytes) {
        DeviceBuffer b = device.allocate(Math.max(bytes, 4));
        try {
            copyToDevice(src.asSlice(0, bytes), b, 0);
        } catch (RuntimeException e) {
            b.close();
            throw e;
        }
        return b;
    }

    /** Copies host memory to the device through the pinned staging buffer, a chunk at a time. */
    private void copyToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset) {
        if (uploadStaging == null) {
            uploadStaging = device.allocatePinned(options.uploadChunkBytes());
        }
        MemorySegment staging = uploadStaging.segment();
        try (StreamLease lease = lease()) {
            Stream s = lease.stream();
            for (long off = 0; off < src.byteSize(); off += staging.byteSize()) {
                long len = Math.min(staging.byteSize(), src.byteSize() - off);
                MemorySegment.copy(src, off, staging, 0, len);
                s.copyToDevice(staging.asSlice(0, len), dst, dstOffset + off);
                s.synchronize(); // the staging buffer is refilled next
            }
        }
    }

    // ---------------------------------------------------------------- memory

    @Override
    public Activations allocate(int rows, int cols) {
        if (rows < 1 || cols < 1) {
            throw new IllegalArgumentException("activations must have rows and columns: " + rows + "x" + cols);
        }
        DeviceBuffer b = device.allocate((long) rows * cols * Float.BYTES);
        try {
            zero(b);
            if (meta.ensure(rows, 2 * rows, 0)) {
                invalidateGraphs();
            }
        } catch (RuntimeException e) {
            b.close();
            throw e;
        }
        return new GpuActivations(this, rows, cols, b);
    }

    @Override
    public KvStorage allocateKv(int layers, int blocks, int blockSize, int kvDim) {
        if (layers < 1 || blocks < 1 || blockSize < 1 || kvDim < 1) {
            throw new IllegalArgumentException("KV storage needs positive sizes");
        }
        long bytes = (long) blocks * blockSize * kvDim * Short.BYTES;
        DeviceBuffer[] keys = new DeviceBuffer[layers];
        DeviceBuffer[] values = new DeviceBuffer[layers];
        try {
            for (int l = 0; l < layers; l++) {
                keys[l] = device.allocate(bytes);
                values[l] = device.allocate(bytes);
                zero(keys[l]);
                zero(values[l]);
            }
        } catch (RuntimeException e) {
            for (int l = 0; l < layers; l++) {
                if (keys[l] != null) {
                    keys[l].close();
                }
                if (values[l] != null) {
                    values[l].close();
                }
            }
            throw e;
        }
        return new GpuKvStorage(this, layers, blocks, blockSize, kvDim, keys, values);
    }

    private void zero(DeviceBuffer b) {
        try (StreamLease lease = lease()) {
            lease.stream().fill(b, (byte) 0);
            lease.stream().synchronize();
        }
    }

    /** Handles call this when closed: pending work may still use the buffers, and graphs bake them in. */
    void release(DeviceBuffer... buffers) {
        if (!closed) {
            try {
                flush(null, 0, null, 0);
            } finally {
                invalidateGraphs();
            }
        }
        for (DeviceBuffer b : buffers) {
            b.close();
        }
    }

    // ---------------------------------------------------------------- operations (recorded)

    @Override
    public void embed(Weight table, int[] tokens, int n, Activations out) {
        GpuWeight w = weight(table);
        GpuActivations o = activations(out);
        checkCols(o, w.cols(), "embed");
        checkRows(n, o, "embed");
        if (w.isVector() || w.bands.size() != 1) {
            throw new IllegalArgumentException(w.name() + " is not an embedding table");
        }
        for (int t = 0; t < n; t++) {
            if (tokens[t] < 0 || tokens[t] >= w.rows()) {
                throw new IllegalArgumentException(
                        "token id " + tokens[t] + " is outside the vocabulary of " + w.rows());
            }
        }
        // A new step: what was recorded before runs first.
        if (!ops.isEmpty() || stepTokens != null) {
            flush(null, 0, null, 0);
        }
        stepTokens = Arrays.copyOf(tokens, n);
        stepTokenCount = n;
        int p = padded(n, o.rows());
        record(new Embed(w, p, o), n, p);
    }

    @Override
    public void rmsNorm(Activations x, Weight weight, float eps, int n, Activations out) {
        GpuActivations in = activations(x);
        GpuActivations o = activations(out);
        GpuWeight w = vector(weight, in.cols(), "rmsNorm");
        checkCols(o, in.cols(), "rmsNorm");
        checkRows(n, in, "rmsNorm");
        checkRows(n, o, "rmsNorm");
        int p = padded(n, Math.min(in.rows(), o.rows()));
        // x += y; y' = norm(x): the residual add of a pre-norm block fuses into the norm after it.
        if (!ops.isEmpty()
                && ops.getLast() instanceof Add(GpuActivations ax, GpuActivations ay, int an)
                && ax == in
                && an == p) {
            ops.removeLast();
            record(new AddRmsNorm(in, ay, w, eps, p, o, false), n, p);
            return;
        }
        record(new RmsNorm(in, w, eps, p, o, false), n, p);
    }

    @Override
    public void layerNorm(Activations x, Weight weight, Weight bias, float eps, int n, Activations out) {
        GpuActivations in = activations(x);
        GpuActivations o = activations(out);
        GpuWeight w = vector(weight, in.cols(), "layerNorm weight");
        GpuWeight b = vector(bias, in.cols(), "layerNorm bias");
        checkCols(o, in.cols(), "layerNorm");
        checkRows(n, in, "layerNorm");
        checkRows(n, o, "layerNorm");
        int p = padded(n, Math.min(in.rows(), o.rows()));
        record(new LayerNorm(in, w, b, eps, p, o), n, p);
    }

    @Override
    public void matmul(Weight weight, Activations x, int n, Activations out) {
        GpuWeight w = weight(weight);
        GpuActivations in = activations(x);
        GpuActivations o = activations(out);
        if (w.isVector()) {
            throw new IllegalArgumentException(w.name() + " is a vector, not a matrix");
        }
        checkCols(in, w.cols(), "matmul input of " + w.name());
        checkCols(o, (int) w.rows(), "matmul output of " + w.name());
        checkRows(n, in, "matmul");
        checkRows(n, o, "matmul");
        int p = padded(n, Math.min(in.rows(), o.rows()));
        int k = w.cols();
        boolean blas = p >= options.gemmMinRows() || k % 8 != 0;
        // GEMV scratch sized for the largest bucket at once: growing it would drop every graph
        long q = blas ? p : Math.max(p, Math.min(options.maxGraphRows(), in.rows()));
        boolean moved = false;
        for (GpuWeight.Band band : w.bands) {
            WeightFormat f = band.format();
            if (blas) {
                if (f != WeightFormat.F32) {
                    moved |= scratch.ensure(Slot.XH, (long) p * k * Short.BYTES);
                }
                if (f != WeightFormat.F32 && f != WeightFormat.F16 && band.half() == null) {
                    int rows = Launcher.dequantRows(k, Math.toIntExact(band.rows()), options.dequantBandBytes());
                    moved |= scratch.ensure(Slot.WDEQ, (long) rows * k * Short.BYTES);
                }
            } else if (f.integerGemv()) {
                moved |= scratch.ensure(Slot.XQ, q * k);
                moved |= scratch.ensure(Slot.XD, q * (k / 32) * Float.BYTES);
                moved |= scratch.ensure(Slot.XS, q * (k / 32) * Integer.BYTES);
            } else if (band.activation() != WeightFormat.Activation.FLOAT) {
                moved |= scratch.ensure(Slot.XF, q * k * Float.BYTES);
            }
        }
        if (moved) {
            invalidateGraphs();
        }
        record(new Matmul(w, in, p, o, blas, !blas && quantizedByProducer(w, in, p)), n, p);
    }

    /**
     * Int8 GEMVs take Q8_0 activations; when the operation just recorded produced {@code x} (a norm
     * or SwiGLU, the usual case), it is switched to a variant that also writes them, which saves
     * the quantization launch.
     */
    private boolean quantizedByProducer(GpuWeight w, GpuActivations x, int n) {
        if (ops.isEmpty()
                || x.cols() % 32 != 0
                || !w.bands.stream().allMatch(b -> b.format().integerGemv())) {
            return false;
        }
        DeviceOp fused =
                switch (ops.getLast()) {
                    case RmsNorm r
                    when r.out() == x && r.n() == n && !r.quantize() ->
                        new RmsNorm(r.x(), r.weight(), r.eps(), n, x, true);
                    case AddRmsNorm r
                    when r.out() == x && r.n() == n && !r.quantize() ->
                        new AddRmsNorm(r.x(), r.residual(), r.weight(), r.eps(), n, x, true);
                    case SwiGlu g
                    when g.out() == x && g.n() == n && !g.quantize() -> new SwiGlu(g.gateUp(), n, x, true);
                    default -> null;
                };
        if (fused == null) {
            return false;
        }
        ops.set(ops.size() - 1, fused);
        return true;
    }

    @Override
    public void addBias(Activations x, Weight bias, int n) {
        GpuActivations a = activations(x);
        GpuWeight b = vector(bias, a.cols(), "addBias");
        checkRows(n, a, "addBias");
        int p = padded(n, a.rows());
        record(new AddBias(a, b, p), n, p);
    }

    @Override
    public void add(Activations x, Activations y, int n) {
        GpuActivations a = activations(x);
        GpuActivations b = activations(y);
        checkCols(b, a.cols(), "add");
        checkRows(n, a, "add");
        checkRows(n, b, "add");
        int p = padded(n, Math.min(a.rows(), b.rows()));
        record(new Add(a, b, p), n, p);
    }

    @Override
    public void rope(Activations x, int col, int heads, int headDim, Batch batch, int n, Rope rope) {
        GpuActivations a = activations(x);
        checkRows(n, a, "rope");
        if (col < 0 || col + (long) heads * headDim > a.cols() || rope.dims() > headDim) {
            throw new IllegalArgumentException("rope of " + heads + " heads of " + headDim + " (rotating " + rope.dims()
                    + ") at column " + col + " does not fit rows of " + a.cols());
        }
        checkBatchRows(batch, n, "rope");
        bindBatch(batch);
        RopeTable table = ropeTables.computeIfAbsent(RopeTable.Key.of(rope), key -> new RopeTable(rope));
        int maxPosition = 0;
        for (int t = 0; t < n; t++) {
            maxPosition = Math.max(maxPosition, batch.position(t));
        }
        if (table.ensure(maxPosition + 1, this)) {
            invalidateGraphs();
        }
        int p = padded(n, a.rows());
        // Queries then keys of one fused q|k|v row: one launch for both.
        if (!ops.isEmpty()
                && ops.getLast() instanceof RotaryEmbedding r
                && r.x() == a
                && r.headDim() == headDim
                && r.style() == rope.style()
                && r.table() == table
                && r.n() == p
                && r.col() + r.heads() * headDim == col) {
            ops.removeLast();
            record(
                    new RotaryEmbedding(a, r.col(), r.heads() + heads, headDim, rope.style(), table, p, null, 0, null),
                    n,
                    p);
            return;
        }
        record(new RotaryEmbedding(a, col, heads, headDim, rope.style(), table, p, null, 0, null), n, p);
    }

    @Override
    public void attention(
            Activations qkv, KvStorage kv, int layer, Batch batch, int n, AttentionShape shape, Activations out) {
        GpuActivations in = activations(qkv);
        GpuActivations o = activations(out);
        if (!(kv instanceof GpuKvStorage cache) || cache.owner() != this) {
            throw new GpuBackendException("KV storage " + kv + " does not belong to " + name);
        }
        checkCols(o, shape.queryDim(), "attention output");
        checkRows(n, in, "attention");
        checkRows(n, o, "attention");
        if (in.cols() < shape.valueCol() + shape.kvDim()) {
            throw new IllegalArgumentException("q|k|v rows of " + in.cols() + " do not hold " + shape);
        }
        if (cache.kvDim() != shape.kvDim()) {
            throw new IllegalArgumentException(
                    "KV storage has " + cache.kvDim() + " dims per slot, the layer needs " + shape.kvDim());
        }
        if (layer < 0 || layer >= cache.layers()) {
            throw new IllegalArgumentException("layer " + layer + " outside KV storage of " + cache.layers());
        }
        int group = shape.heads() / shape.kvHeads();
        if (group > ATTENTION_MAX_GROUP || group * shape.headDim() > ATTENTION_MAX_QDIM) {
            throw new GpuBackendException("attention of " + group + " query heads of " + shape.headDim()
                    + " per kv head exceeds the kernel's " + ATTENTION_MAX_QDIM + " values");
        }
        checkBatchRows(batch, n, "attention");
        bindBatch(batch);
        if (stepValidated.add(cache)) {
            validateSlots(batch, cache);
        }
        int p = padded(n, Math.min(in.rows(), o.rows()));
        int splits = attentionSplits(shape.kvHeads(), p);
        // rows x splits stays below 2 x multiprocessors + rows: sized once for every bucket
        long units = Math.max((long) p * splits, 2L * device.info().multiprocessors() + options.maxGraphRows());
        if (splits > 1) {
            boolean moved = scratch.ensure(Slot.ATTENTION, units * shape.heads() * (shape.headDim() + 2) * Float.BYTES);
            moved |= scratch.ensure(Slot.ATTENTION_STATS, units * shape.heads() * 2 * Float.BYTES);
            if (moved) {
                invalidateGraphs();
            }
        }
        int tiles = 0;
        if (p >= options.gemmMinRows() && p >= 4 * batch.sequences() && Launcher.tiledAttentionKernel(shape) != null) {
            int[] t = StepMeta.tiles(batch, p, Launcher.TILE_QUERIES / (shape.heads() / shape.kvHeads()));
            if (stepTiles != null && !Arrays.equals(stepTiles, t)) {
                throw new GpuBackendException("two tilings of the attention rows in one step");
            }
            stepTiles = t;
            tiles = t.length / 2;
        }
        record(
                new Attention(
                        in, cache, layer, shape, splits, p, o, ropeWritesCache(in, cache, layer, shape, p), tiles),
                n,
                p);
    }

    /**
     * When the operation just recorded is the rope of this attention's keys (all kv heads, after
     * the queries), it is switched to the variant that also writes keys and values to the cache,
     * saving the separate cache-write launch.
     */
    private boolean ropeWritesCache(GpuActivations qkv, GpuKvStorage kv, int layer, AttentionShape shape, int n) {
        if (ops.isEmpty()
                || !(ops.getLast() instanceof RotaryEmbedding r)
                || r.kv() != null
                || r.x() != qkv
                || r.n() != n
                || r.headDim() != shape.headDim()
                || r.col() > shape.keyCol()
                || r.col() + r.heads() * r.headDim() != shape.keyCol() + shape.kvDim()) {
            return false;
        }
        ops.set(
                ops.size() - 1,
                new RotaryEmbedding(r.x(), r.col(), r.heads(), r.headDim(), r.style(), r.table(), n, kv, layer, shape));
        return true;
    }

    /**
     * Position splits per row for the per-row kernels: enough for about two blocks per
     * multiprocessor whatever the batch (measured on an H200: one row decodes fastest with 16 to 32
     * splits, 64 rows with one), independent of the context so that a bucket's graph stays valid
     * as sequences grow.
     */
    private int attentionSplits(int kvHeads, int rows) {
        int splits = (2 * device.info().multiprocessors() + kvHeads * rows - 1) / (kvHeads * rows);
        return Math.max(1, Math.min(MAX_ATTENTION_SPLITS, splits));
    }

    @Override
    public void swiGlu(Activations gateUp, int n, Activations out) {
        GpuActivations gu = activations(gateUp);
        GpuActivations o = activations(out);
        checkCols(gu, 2 * o.cols(), "swiGlu input");
        checkRows(n, gu, "swiGlu");
        checkRows(n, o, "swiGlu");
        int p = padded(n, Math.min(gu.rows(), o.rows()));
        record(new SwiGlu(gu, p, o, false), n, p);
    }

    @Override
    public void gatherRows(Activations x, int[] rows, Activations out) {
        GpuActivations in = activations(x);
        GpuActivations o = activations(out);
        checkCols(o, in.cols(), "gatherRows");
        checkRows(rows.length, o, "gatherRows");
        for (int r : rows) {
            if (r < 0 || r >= in.rows()) {
                throw new IndexOutOfBoundsException("row " + r + " of " + in.rows());
            }
        }
        if (rows.length == 0) {
            return;
        }
        int p = padded(rows.length, o.rows());
        int offset = addInts(rows, rows.length, p);
        record(new Gather(in, offset, p, o), rows.length, p);
    }

    @Override
    public void read(Activations x, int n, float[] dst, int dstOffset) {
        GpuActivations a = activations(x);
        checkRows(n, a, "read");
        if (dstOffset < 0 || dstOffset + (long) n * a.cols() > dst.length) {
            throw new IndexOutOfBoundsException(
                    "reading " + n + " rows of " + a.cols() + " into " + dst.length + " floats at " + dstOffset);
        }
        flush(a, n, dst, dstOffset);
    }

    @Override
    public void topK(Activations x, int n, int k, int[] ids, float[] values, int at) {
        GpuActivations a = activations(x);
        checkRows(n, a, "topK");
        if (k < 1 || k > Math.min(MAX_TOP_K, a.cols())) {
            throw new IllegalArgumentException("k must be in [1, " + Math.min(MAX_TOP_K, a.cols()) + "]: " + k);
        }
        if (at < 0 || ids.length - at < n * k || values.length - at < n * k) {
            throw new IndexOutOfBoundsException(
                    "top-" + k + " of " + n + " rows needs " + n * k + " entries from " + at);
        }
        boolean moved = scratch.ensure(Slot.TOPK_IDS, (long) n * k * Integer.BYTES);
        moved |= scratch.ensure(Slot.TOPK_VALUES, (long) n * k * Float.BYTES);
        if (moved) {
            invalidateGraphs();
        }
        record(new TopK(a, n, k), n, n);
        flushThen(s -> {
            ensureReadStaging(2L * n * k * Integer.BYTES);
            MemorySegment staging = readStaging.segment();
            s.copyToHost(scratch.get(Slot.TOPK_IDS), 0, staging.asSlice(0, (long) n * k * Integer.BYTES));
            s.copyToHost(
                    scratch.get(Slot.TOPK_VALUES),
                    0,
                    staging.asSlice((long) n * k * Integer.BYTES, (long) n * k * Float.BYTES));
        });
        MemorySegment staging = readStaging.segment();
        MemorySegment.copy(staging, ValueLayout.JAVA_INT, 0, ids, at, n * k);
        MemorySegment.copy(staging, ValueLayout.JAVA_FLOAT, (long) n * k * Integer.BYTES, values, at, n * k);
    }

    @Override
    public void encoderAttention(Activations qkv, int[] starts, int sequences, AttentionShape shape, Activations out) {
        GpuActivations in = activations(qkv);
        GpuActivations o = activations(out);
        checkCols(o, shape.queryDim(), "encoder attention output");
        checkCols(in, shape.queryDim() + 2 * shape.kvDim(), "encoder attention q|k|v");
        if (shape.causal() || shape.slidingWindow() > 0) {
            throw new IllegalArgumentException("encoder attention is bidirectional over whole sequences: " + shape);
        }
        if (shape.headDim() > Launcher.ENCODER_MAX_HEAD_DIM) {
            throw new GpuBackendException("encoder attention heads of " + shape.headDim() + " exceed the kernel's "
                    + Launcher.ENCODER_MAX_HEAD_DIM);
        }
        int rows = Spans.check(starts, sequences, in.rows(), o.rows());
        int longest = 0;
        for (int s = 0; s < sequences; s++) {
            longest = Math.max(longest, starts[s + 1] - starts[s]);
        }
        int offset = addInts(starts, sequences + 1, sequences + 1);
        record(new DeviceOp.EncoderAttention(in, offset, sequences, rows, longest, shape, o), rows, rows);
    }

    @Override
    public void gelu(Activations x, int n) {
        GpuActivations a = activations(x);
        checkRows(n, a, "gelu");
        int p = padded(n, a.rows());
        record(new DeviceOp.Gelu(a, p), n, p);
    }

    @Override
    public void pool(Activations x, int[] starts, int sequences, Pooling pooling, Activations out) {
        GpuActivations in = activations(x);
        GpuActivations o = activations(out);
        checkCols(o, in.cols(), "pool");
        Spans.check(starts, sequences, in.rows());
        if (sequences > o.rows()) {
            throw new IllegalArgumentException(
                    sequences + " sequences do not fit pooled activations of " + o.rows() + " rows");
        }
        int mode =
                switch (pooling) {
                    case MEAN -> 1;
                    case CLS -> 2;
                    case LAST -> 3;
                };
        int offset = addInts(starts, sequences + 1, sequences + 1);
        record(new DeviceOp.Pool(in, offset, sequences, mode, o), sequences, sequences);
    }

    // ---------------------------------------------------------------- steps

    /**
     * Copies {@code count} ints (then zeros up to {@code padTo}) into the step's int region (row
     * indices, span starts) and returns where they start; a full region runs the step first.
     */
    private int addInts(int[] values, int count, int padTo) {
        if (stepIntCount + padTo > meta.intCapacity()) {
            flush(null, 0, null, 0);
            if (meta.ensure(0, padTo, 0)) {
                invalidateGraphs();
            }
        }
        if (stepInts.length < stepIntCount + padTo) {
            stepInts = Arrays.copyOf(stepInts, Math.max(stepIntCount + padTo, 2 * stepInts.length));
        }
        int offset = stepIntCount;
        System.arraycopy(values, 0, stepInts, offset, count);
        Arrays.fill(stepInts, offset + count, offset + padTo, 0);
        stepIntCount += padTo;
        return offset;
    }

    private int padded(int n, int capacity) {
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

    private void record(DeviceOp op, int n, int padded) {
        if (padded > meta.rowCapacity() && meta.ensure(padded, 0, 0)) {
            invalidateGraphs();
        }
        ops.add(op);
        stepRows = Math.max(stepRows, padded);
        if (n > options.maxGraphRows() || !op.graphable()) {
            stepGraphable = false;
        }
    }

    /** The step's batch; a different batch starts a new step. */
    private void bindBatch(Batch batch) {
        if (stepBatch == batch) {
            return;
        }
        if (stepBatch != null) {
            flush(null, 0, null, 0);
        }
        if (meta.ensure(0, 0, StepMeta.tableEntries(batch))) {
            invalidateGraphs();
        }
        stepBatch = batch;
    }

    /** Every slot the batch's attention writes or reads must lie in the storage: the device does not check. */
    private static void validateSlots(Batch batch, GpuKvStorage kv) {
        if (batch.blockSize() != kv.blockSize()) {
            throw new IllegalArgumentException(
                    "batch blocks of " + batch.blockSize() + " but KV blocks of " + kv.blockSize());
        }
        int[] last = new int[batch.sequences()];
        Arrays.fill(last, -1);
        for (int t = 0; t < batch.size(); t++) {
            last[batch.sequenceOf(t)] = Math.max(last[batch.sequenceOf(t)], batch.position(t));
        }
        for (int s = 0; s < last.length; s++) {
            int[] table = batch.blockTable(s);
            for (int b = 0; b <= last[s] / batch.blockSize() && last[s] >= 0; b++) {
                if (table[b] < 0 || table[b] >= kv.blocks()) {
                    throw new IndexOutOfBoundsException(
                            "sequence " + s + " uses block " + table[b] + " of a KV storage of " + kv.blocks());
                }
            }
        }
    }

    private void flush(GpuActivations readFrom, int readRows, float[] dst, int dstOffset) {
        if (ops.isEmpty() && readFrom == null) {
            resetStep();
            return;
        }
        flushThen(
                readFrom == null
                        ? null
                        : s -> {
                            long bytes = (long) readRows * readFrom.cols() * Float.BYTES;
                            ensureReadStaging(bytes);
                            s.copyToHost(
                                    readFrom.buffer, 0, readStaging.segment().asSlice(0, bytes));
                        });
        if (readFrom != null) {
            MemorySegment.copy(
                    readStaging.segment(), ValueLayout.JAVA_FLOAT, 0, dst, dstOffset, readRows * readFrom.cols());
        }
    }

    /** Runs the recorded step on a leased stream, then {@code after} (copies back), then waits. */
    private void flushThen(java.util.function.Consumer<Stream> after) {
        try (StreamLease lease = lease()) {
            Stream s = lease.stream();
            boolean replayed = false;
            boolean profiled = false;
            if (!ops.isEmpty()) {
                long bytes = meta.fill(
                        stepTokens,
                        stepTokenCount,
                        stepBatch,
                        stepInts,
                        stepIntCount,
                        stepRows,
                        stepTiles,
                        stepTiles == null ? 0 : stepTiles.length / 2);
                s.copyToDevice(meta.staging().asSlice(0, bytes), meta.buffer());
                Launcher l = new Launcher(device, s, scratch, meta, options.dequantBandBytes());
                if (profiling) {
                    runProfiled(s, l);
                    profiled = true;
                } else if (options.graphs() && stepGraphable) {
                    replay(s, l);
                    replayed = true;
                } else {
                    for (DeviceOp op : ops) {
                        op.run(l);
                    }
                    eagerSteps++;
                }
            }
            if (after != null) {
                after.accept(s);
            }
            s.synchronize();
            if (replayed) {
                graphMillis += graphEnd.elapsedMillisSince(graphStart);
            }
            if (profiled) {
                for (int i = 0; i < ops.size(); i++) {
                    DeviceOp op = ops.get(i);
                    double ms = profileEvents.get(i + 1).elapsedMillisSince(profileEvents.get(i));
                    profile.merge(
                            op.profileKey(),
                            new ProfileEntry(op.profileKey(), 1, ms, op.weightBytes()),
                            (a, b) ->
                                    new ProfileEntry(a.key(), a.calls() + 1, a.millis() + b.millis(), a.weightBytes()));
                }
            }
        } finally {
            resetStep();
        }
    }

    private void runProfiled(Stream s, Launcher l) {
        while (profileEvents.size() <= ops.size()) {
            profileEvents.add(device.createEvent());
        }
        s.record(profileEvents.getFirst());
        for (int i = 0; i < ops.size(); i++) {
            ops.get(i).run(l);
            s.record(profileEvents.get(i + 1));
        }
        eagerSteps++;
    }

    private void replay(Stream s, Launcher l) {
        Graph g = graphs.get(ops);
        if (g == null) {
            try (GraphCapture capture = s.beginCapture()) {
                for (DeviceOp op : ops) {
                    op.run(l);
                }
                g = capture.end();
            }
            graphs.put(List.copyOf(ops), g);
            captures++;
            if (graphs.size() > options.maxGraphs()) {
                var eldest = graphs.entrySet().iterator().next();
                eldest.getValue().close(); // not running: every step waits for its stream
                graphs.remove(eldest.getKey());
            }
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

    private void ensureReadStaging(long bytes) {
        if (readStaging == null || readStaging.byteSize() < bytes) {
            if (readStaging != null) {
                readStaging.close();
            }
            readStaging = device.allocatePinned(Math.max(bytes, 1 << 20));
        }
    }

    private void resetStep() {
        ops.clear();
        stepTokens = null;
        stepTokenCount = 0;
        stepBatch = null;
        stepValidated.clear();
        stepIntCount = 0;
        stepRows = 0;
        stepTiles = null;
        stepGraphable = true;
    }

    private void invalidateGraphs() {
        graphs.values().forEach(Graph::close);
        graphs.clear();
    }

    private StreamLease lease() {
        try {
            return device.streams().lease();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GpuBackendException("interrupted waiting for a stream of " + device, e);
        }
    }

    // ---------------------------------------------------------------- checks

    private GpuWeight weight(Weight w) {
        if (!(w instanceof GpuWeight g) || g.owner() != this) {
            throw new GpuBackendException("weight " + w + " does not belong to " + name);
        }
        return g;
    }

    private GpuWeight vector(Weight w, int length, String what) {
        GpuWeight g = weight(w);
        if (!g.isVector() || g.cols() != length) {
            throw new IllegalArgumentException(what + ": " + g.name() + " is not a vector of " + length);
        }
        return g;
    }

    private GpuActivations activations(Activations a) {
        if (!(a instanceof GpuActivations g) || g.owner() != this) {
            throw new GpuBackendException("activations " + a + " do not belong to " + name);
        }
        return g;
    }

    private static void checkCols(Activations a, int cols, String what) {
        if (a.cols() != cols) {
            throw new IllegalArgumentException(what + ": activations have " + a.cols() + " columns, expected " + cols);
        }
    }

    private static void checkRows(int n, Activations a, String what) {
        if (n < 0 || n > a.rows()) {
            throw new IllegalArgumentException(what + ": " + n + " rows of activations with " + a.rows());
        }
    }

    private static void checkBatchRows(Batch batch, int n, String what) {
        if (n > batch.size()) {
            throw new IllegalArgumentException(what + ": " + n + " rows of a batch of " + batch.size());
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        for (Runnable step : new Runnable[] {
            this::resetStep,
            this::invalidateGraphs,
            scratch::close,
            meta::close,
            () -> profileEvents.forEach(Event::close),
            () -> {
                if (graphStart != null) {
                    graphStart.close();
                    graphEnd.close();
                }
            },
            () -> ropeTables.values().forEach(RopeTable::close),
            () -> {
                if (uploadStaging != null) uploadStaging.close();
            },
            () -> {
                if (readStaging != null) readStaging.close();
            },
            () -> {
                if (ownedPool != null) ownedPool.close();
            }
        }) {
            try {
                step.run();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        LOG.log(System.Logger.Level.DEBUG, "{0} closed: {1}", name, stats());
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "gpu backend " + name + " (" + device.info().name() + ", "
                + device.info().arch() + ")";
    }
}
