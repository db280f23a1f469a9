package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_ATT_MAX_GROUP;
import static com.llmserve.kernels.KernelConstants.LS_ATT_MAX_QDIM;
import static com.llmserve.kernels.KernelConstants.LS_DEC_MAX_GROUP;
import static com.llmserve.kernels.KernelConstants.LS_ENC_MAX_DIM;
import static com.llmserve.kernels.KernelConstants.LS_QK;
import static com.llmserve.kernels.KernelConstants.LS_ROUTE_MAX_USED;
import static com.llmserve.kernels.KernelConstants.LS_TILE_Q;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.Cleanup;
import com.llmserve.engine.backend.Gating;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.Pending;
import com.llmserve.engine.backend.Pooling;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.backend.Step;
import com.llmserve.engine.backend.Unary;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.gguf.GgufTensor;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.DeviceArch;
import com.llmserve.gpu.DeviceBuffer;
import com.llmserve.gpu.Stream;
import com.llmserve.gpu.Vendor;
import com.llmserve.kernels.KernelModuleId;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The compute backend on one GPU (CUDA or HIP, through {@code gpu-runtime}; kernels from
 * {@code kernels/}). Its parts, each with one job:
 *
 * <ul>
 *   <li>{@link WeightUploader}: weights into device memory once, in the layout the kernels read;
 *   <li>{@link StepRecorder}: the open step's operations (one {@link DeviceOp} record each, rows
 *       padded to a bucket), merged with their neighbours by {@link Fusions};
 *   <li>{@link StepExecutor}: runs what was recorded at the step's sync points ({@link #read},
 *       {@link #topK}, the step's end), as a captured graph from the {@link GraphCache} when it can;
 *   <li>{@link Workspace}: the scratch, metadata and rope-table buffers operations reach.
 * </ul>
 *
 * This class only turns each checked {@link Backend} call into the operation it records. One
 * forward pass at a time, as {@link Backend} says; every run waits for its stream before the
 * stream goes back, so runs never overlap.
 */
public final class GpuBackend extends Backend {

    private static final System.Logger LOG = System.getLogger(GpuBackend.class.getName());

    private final Device device;
    private final GpuOptions options;
    private final HostTransfer transfer;
    private final Workspace workspace;
    private final WeightUploader uploader;
    private final StepRecorder recorder;
    private final StepExecutor executor;
    /** Whether the ls_mmq_* and ls_mmh_* products run on matrix instructions here ({@link #matrixCores}). */
    private final boolean matrixCores;

    /**
     * Whether the attention's half-precision tensor-core kernels (ls_attention_mma_d* and
     * ls_attention_dmma_*) run here: NVIDIA sm_80 on (on AMD their bodies are empty).
     */
    private final boolean halfTensorCores;

    /** The shards this backend is one of, or null for a model on one device. */
    private final ShardGroup group;

    private final int rank;

    /**
     * Where each {@link #topKLater} leaves its ids on the device for the next step's
     * {@link #embedChoices} (a buffer that never moves, unlike the top-k scratch a step may grow);
     * allocated on the first such call.
     */
    private DeviceBuffer choiceIds;
    /** The rows and k of the last {@link #topKLater}, whose ids are in {@link #choiceIds}; null after a topK. */
    private Choices choices;

    private record Choices(int rows, int k) {}

    /**
     * The most ids (rows x k) a {@link #topKLater} leaves on the device for the next step; more are
     * chosen at once, as by a topK (a model asks for at most 32 rows x 64).
     */
    static final int CHOICE_CAPACITY = 1 << 14;

    private GpuBackend(Device device, GpuOptions options, ShardGroup group, int rank) {
        super((device.info().vendor() == Vendor.NVIDIA ? "cuda:" : "hip:")
                + device.info().ordinal());
        this.group = group;
        this.rank = rank;
        this.device = device;
        this.options = options;
        this.transfer = new HostTransfer(device, options.uploadChunkBytes());
        this.workspace = new Workspace(device, options, transfer);
        this.uploader = new WeightUploader(this, device, options, transfer);
        this.recorder = new StepRecorder(workspace);
        this.executor = new StepExecutor(device, workspace);
        workspace.beforeMoving(executor::awaitAll);
        this.matrixCores = matrixCores(device.info().arch());
        this.halfTensorCores = device.info().arch().atLeast(DeviceArch.SM_80);
        // every code object now: a module must not load inside a graph capture
        for (KernelModuleId id : KernelModuleId.values()) {
            device.modules().module(id);
        }
        workspace.reserveMeta(64, 128, 1024);
    }

    /**
     * Whether {@code arch} runs the quantized products ls_mmq_* (int8) and ls_mmh_* (half) on matrix
     * instructions: NVIDIA sm_80 on ({@code mma.sync}), and the AMD targets mmq.hip has paths for,
     * gfx90a and gfx942 (MFMA) and gfx11 (WMMA). Elsewhere those kernels are a plain loop, slower than
     * dequantizing for the BLAS. No AMD GPU has run the AMD paths (docs/amd.md); {@code
     * mmq-max-rows=0} and {@code expert-tensor-cores=false} keep any device off them.
     */
    static boolean matrixCores(DeviceArch arch) {
        return switch (arch.vendor()) {
            case NVIDIA -> arch.atLeast(DeviceArch.SM_80);
            case AMD -> arch.equals(DeviceArch.GFX90A) || arch.equals(DeviceArch.GFX942) || arch.major() == 11;
        };
    }

    /** A backend on {@code device}; whoever opened the device's pool closes it after the backend. */
    public static GpuBackend open(Device device, GpuOptions options) {
        return new GpuBackend(device, options, null, 0);
    }

    /** Shard {@code rank} of {@code group}. */
    static GpuBackend openShard(Device device, GpuOptions options, ShardGroup group, int rank) {
        return new GpuBackend(device, options, group, rank);
    }

    /** Device memory of {@code bytes}, zeroed (the peer all-reduce's flags, the KV cache). */
    DeviceBuffer allocateZeroed(long bytes) {
        executor.awaitAll(); // copies on another stream than the runs still out
        DeviceBuffer b = device.allocate(bytes);
        try {
            transfer.zero(b);
            return b;
        } catch (RuntimeException e) {
            b.close();
            throw e;
        }
    }

    StepRecorder recorder() {
        return recorder;
    }

    StepExecutor executor() {
        return executor;
    }

    /** Every shard of this backend's model, shard 0 first; this backend alone without tensor parallelism. */
    @Override
    public List<GpuBackend> shards() {
        return group == null ? List.of(this) : group.shards();
    }

    public Device device() {
        return device;
    }

    public GpuOptions options() {
        return options;
    }

    @Override
    /**
     * The device's free bytes; for the lead shard of a tensor-parallel model, what the model's
     * cache may use over all its shards: the least any of them has free, times their number (each
     * shard keeps an equal part of every block).
     */
    public OptionalLong freeMemory() {
        if (group == null || rank != 0) {
            return OptionalLong.of(device.memoryInfo().free());
        }
        long least = Long.MAX_VALUE;
        for (GpuBackend s : group.shards()) {
            least = Math.min(least, s.device.memoryInfo().free());
        }
        return OptionalLong.of(least * group.size());
    }

    @Override
    public boolean accelerated() {
        return true;
    }

    @Override
    public String description() {
        String where =
                name() + " (" + device.info().name() + ", " + device.info().arch();
        return group == null || rank != 0 ? where + ")" : where + ", tensor parallel over " + group.size() + ")";
    }

    /**
     * Counters for reports and tests.
     *
     * @param weightBytes     device bytes of the weights as products read them on the GEMV path
     * @param halfWeightBytes device bytes of the half copies ({@link GpuOptions#halfWeights()})
     * @param eagerSteps      runs that launched their kernels one by one
     * @param graphMillis     device time of every graph replay, from events around each launch
     * @param launchMillis    host time from each run's start (its stream leased) until everything it
     *                        runs and copies back was issued
     * @param waitMillis      host time waiting for runs to finish; what a step spends outside these
     *                        two is the model recording its operations
     * @param copyMillis      device time of the copies around the graphs of runs issued without
     *                        waiting (the metadata in before, the choices out after), as events on
     *                        their stream saw it: with steps issued back to back, the device's pause
     *                        between two graphs
     */
    public record Stats(
            long weightBytes,
            long halfWeightBytes,
            long graphCaptures,
            long graphReplays,
            long eagerSteps,
            int graphsCached,
            double graphMillis,
            double launchMillis,
            double waitMillis,
            double copyMillis) {}

    public Stats stats() {
        return new Stats(
                uploader.weightBytes(),
                uploader.halfBytes(),
                executor.captures(),
                executor.replays(),
                executor.eagerRuns(),
                executor.graphsCached(),
                executor.graphMillis(),
                executor.launchMillis(),
                executor.waitMillis(),
                executor.copyMillis());
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
        runPending();
        executor.setProfiling(on);
    }

    /**
     * A measuring instrument, never for serving: every later step leaves out the operations whose
     * {@link ProfileEntry#key() profile key} {@code keys} accepts (null: none), so that a captured
     * step's device time without them says what they cost inside it. The results are wrong while
     * any operation is left out. Cached graphs are dropped.
     */
    public void omitFromLaunches(Predicate<String> keys) {
        runPending();
        executor.setOmitted(keys);
    }

    /** The profile gathered since the last call, the most expensive kinds first; clears it. */
    public List<ProfileEntry> takeProfile() {
        return executor.takeProfile();
    }

    // ---------------------------------------------------------------- memory

    @Override
    protected Weight doUploadMatrix(String name, List<GgufTensor> parts, int cols) {
        executor.awaitAll();
        return uploader.matrix(name, Weight.Kind.MATRIX, parts, cols);
    }

    @Override
    protected Weight doUploadExperts(String name, List<GgufTensor> stacks, int experts, int rows, int cols) {
        executor.awaitAll();
        if (cols % LS_QK != 0) {
            // the grouped GEMV reads activations in blocks of 32 (and has no BLAS fallback)
            throw new GpuBackendException(
                    name + ": experts' rows of " + cols + " values are not a multiple of " + LS_QK);
        }
        return uploader.experts(name, stacks, experts, cols);
    }

    @Override
    protected Weight doUploadTable(GgufTensor tensor) {
        executor.awaitAll();
        // rows not a multiple of 8 long are F32, gathered element by element
        return uploader.matrix(tensor.name(), Weight.Kind.TABLE, List.of(tensor), (int) tensor.rowLength());
    }

    @Override
    protected Weight doUploadVector(String name, float[] values) {
        executor.awaitAll();
        return uploader.vector(name, values);
    }

    @Override
    protected Activations doAllocate(int rows, int cols) {
        executor.awaitAll();
        DeviceBuffer b = device.allocate((long) rows * cols * Float.BYTES);
        try {
            transfer.zero(b);
            // metadata for as many rows as any step over these activations: it never grows mid-serving
            workspace.reserveMeta(rows, 2 * rows, 0);
        } catch (RuntimeException e) {
            b.close();
            throw e;
        }
        return new GpuActivations(this, rows, cols, b);
    }

    /** F16 and Q8_0 (llama.cpp's {@code --cache-type-k/-v q8_0}, the CPU backend's rounding). */
    @Override
    public Set<KvCacheType> kvCacheTypes() {
        return EnumSet.of(KvCacheType.F16, KvCacheType.Q8_0);
    }

    @Override
    public void checkKvCacheShape(KvCacheType type, int heads, int kvHeads, int headDim) {
        if (type == KvCacheType.Q8_0 && !Attention.readsQ8(heads, kvHeads, headDim)) {
            throw new UnsupportedOperationException("the " + name() + " backend reads a q8_0 KV cache for heads of "
                    + Attention.Q8_HEAD_SIZES + " values and at most " + LS_DEC_MAX_GROUP
                    + " query heads per kv head, not " + heads + "/" + kvHeads + " heads of " + headDim
                    + ": serve it with an f16 KV cache (llmserve.engine.kv-cache-type)");
        }
    }

    @Override
    protected KvStorage doAllocateKv(
            int[] groupOfLayer, int[] blocksOfGroup, int blockSize, int kvDim, KvCacheType type) {
        int layers = groupOfLayer.length;
        boolean q8 = type == KvCacheType.Q8_0;
        DeviceBuffer[] keys = new DeviceBuffer[layers];
        DeviceBuffer[] values = new DeviceBuffer[layers];
        DeviceBuffer[] keyScales = q8 ? new DeviceBuffer[layers] : null;
        DeviceBuffer[] valueScales = q8 ? new DeviceBuffer[layers] : null;
        try {
            for (int l = 0; l < layers; l++) {
                long slots = (long) blocksOfGroup[groupOfLayer[l]] * blockSize;
                long bytes = slots * kvDim * (q8 ? Byte.BYTES : Short.BYTES);
                keys[l] = allocateZeroed(bytes);
                values[l] = allocateZeroed(bytes);
                if (q8) {
                    long scaleBytes = slots * (kvDim / KvCacheType.Q8_0_BLOCK) * Short.BYTES;
                    keyScales[l] = allocateZeroed(scaleBytes);
                    valueScales[l] = allocateZeroed(scaleBytes);
                }
            }
        } catch (RuntimeException e) {
            GpuKvStorage.closeAll(keys, values, keyScales, valueScales);
            throw e;
        }
        return new GpuKvStorage(
                this, groupOfLayer, blocksOfGroup, blockSize, kvDim, type, keys, values, keyScales, valueScales);
    }

    @Override
    protected void doWrite(float[] src, int srcOffset, int n, Activations x) {
        runPending();
        executor.awaitAll(); // the copy goes on another stream than the runs still out
        long bytes = (long) n * x.cols() * Float.BYTES;
        transfer.toDevice(MemorySegment.ofArray(src).asSlice((long) srcOffset * Float.BYTES, bytes), act(x).buffer, 0);
    }

    // ---------------------------------------------------------------- steps

    @Override
    protected void doBeginStep(Batch batch) {
        recorder.begin(batch);
    }

    @Override
    protected void doEndStep() {
        try {
            runPending();
        } finally {
            recorder.end();
        }
    }

    /** A handle's memory goes back: recorded work may still use it. Graphs need no care: their keys hold the handle. */
    @Override
    protected void beforeRelease() {
        runPending();
        executor.awaitAll(); // memory freed now may be handed out again at once
    }

    /**
     * Runs what is recorded (after every run still out) and waits for it; with nothing recorded, a
     * step's end, it leaves the runs still out alone.
     */
    private void runPending() {
        if (group != null) {
            // a shard's all-reduces wait for the others' parts: every shard's recording runs at once
            group.run(this, null);
        } else if (!recorder.isEmpty()) {
            executor.run(recorder, null);
        }
    }

    /** Runs what is recorded (on every shard of a group), then {@code copyBack} on this backend's stream. */
    private void runWith(Consumer<Stream> copyBack) {
        if (group != null) {
            group.run(this, copyBack);
        } else {
            executor.run(recorder, copyBack);
        }
    }

    // ---------------------------------------------------------------- operations, recorded

    @Override
    protected void doEmbed(Step step, Weight table, int[] ids, int n, Activations out) {
        int p = recorder.padded(n, out.rows());
        int at = recorder.addInts(ids, n, p);
        recorder.record(new Embed((GpuWeight) table, at, p, act(out)), n);
    }

    @Override
    protected void doRmsNorm(Step step, Activations x, Weight weight, float eps, int n, Activations out) {
        int p = recorder.padded(n, Math.min(x.rows(), out.rows()));
        recorder.record(new RmsNorm(act(x), (GpuWeight) weight, eps, p, act(out), false), n);
    }

    @Override
    protected void doLayerNorm(
            Step step, Activations x, Weight weight, Weight bias, float eps, int n, Activations out) {
        int p = recorder.padded(n, Math.min(x.rows(), out.rows()));
        recorder.record(new LayerNorm(act(x), (GpuWeight) weight, (GpuWeight) bias, eps, p, act(out)), n);
    }

    @Override
    protected void doMatmul(Step step, Weight w, Activations x, int n, Activations out) {
        int p = recorder.padded(n, Math.min(x.rows(), out.rows()));
        Batch batch = step.batch();
        boolean decodeRows = batch != null && batch.size() == batch.sequences();
        recorder.record(
                Matmul.of((GpuWeight) w, act(x), p, act(out), options, matrixCores, matrixCores, decodeRows), n);
    }

    @Override
    protected void doAddBias(Step step, Activations x, Weight bias, int n) {
        recorder.record(new AddBias(act(x), (GpuWeight) bias, recorder.padded(n, x.rows())), n);
    }

    @Override
    protected void doAllReduceSum(Step step, Activations x, int n) {
        if (group != null) {
            recorder.record(new AllReduce(act(x), recorder.padded(n, x.rows()), group, rank), n);
        }
    }

    @Override
    protected void doAdd(Step step, Activations x, Activations y, int n) {
        int p = recorder.padded(n, Math.min(x.rows(), y.rows()));
        recorder.record(new Add(act(x), act(y), p), n);
    }

    @Override
    protected void doUnary(Step step, Unary f, Activations x, int n) {
        recorder.record(new UnaryOp(f, act(x), recorder.padded(n, x.rows())), n);
    }

    @Override
    protected void doSwiGlu(Step step, Activations gateUp, int n, Activations out) {
        int p = recorder.padded(n, Math.min(gateUp.rows(), out.rows()));
        recorder.record(new SwiGlu(act(gateUp), p, act(out), false), n);
    }

    @Override
    protected void doGeGlu(Step step, Activations gateUp, int n, Activations out) {
        int p = recorder.padded(n, Math.min(gateUp.rows(), out.rows()));
        recorder.record(new GeGlu(act(gateUp), p, act(out)), n);
    }

    @Override
    protected void doScale(Step step, Activations x, float factor, int n) {
        recorder.record(new Scale(act(x), factor, recorder.padded(n, x.rows())), n);
    }

    @Override
    protected void doHeadRmsNorm(
            Step step, Activations x, int col, int heads, int headDim, Weight weight, float eps, int n) {
        int p = recorder.padded(n, x.rows());
        recorder.record(new HeadRmsNorm(act(x), col, heads, headDim, (GpuWeight) weight, eps, p), n);
    }

    @Override
    protected void doRouteExperts(
            Step step, Activations logits, int first, int tokens, float scale, Gating gating, Activations routing) {
        // (the experts are at most Backend.MAX_ROUTED_EXPERTS, LS_ROUTE_MAX_EXPERTS, on every backend)
        int used = routing.cols() / 2;
        if (used > LS_ROUTE_MAX_USED) {
            throw new GpuBackendException("routing to " + used + " experts a token exceeds the device's "
                    + LS_ROUTE_MAX_USED + " (the CPU backend has no such limit)");
        }
        int p = recorder.padded(tokens, Math.min(routing.rows(), logits.rows() - first));
        recorder.record(new RouteExperts(act(logits), first, p, scale, gating, act(routing)), tokens);
    }

    @Override
    protected void doAddExpertBias(
            Step step, Activations y, int col, int width, Weight bias, Activations routing, int tokens) {
        int used = routing.cols() / 2;
        int p = recorder.padded(tokens, Math.min(routing.rows(), y.rows() / used));
        recorder.record(new AddExpertBias(act(y), col, width, (GpuWeight) bias, act(routing), p), tokens);
    }

    @Override
    protected void doSwiGluOai(Step step, Activations gateUp, int n, Activations out) {
        int p = recorder.padded(n, Math.min(gateUp.rows(), out.rows()));
        recorder.record(new SwiGluOai(act(gateUp), p, act(out)), n);
    }

    /**
     * Padded tokens of a mixture's ops compute on rows no sequence reads (their pairs are rows of
     * their own, pair {@code t * used + j}), so a bucket's steps record equal operations.
     */
    @Override
    protected void doExpertMatmul(
            Step step,
            Weight w,
            Activations routing,
            int tokens,
            int xFirst,
            boolean xPerPair,
            Activations x,
            Activations out) {
        int used = routing.cols() / 2;
        int capacity = Math.min(routing.rows(), out.rows() / used);
        capacity = Math.min(capacity, xPerPair ? x.rows() / used : x.rows() - xFirst);
        int p = recorder.padded(tokens, capacity);
        int xRows = xPerPair ? p * used : xFirst + p;
        recorder.record(
                ExpertMatmul.of(
                        (GpuWeight) w,
                        act(routing),
                        p,
                        xFirst,
                        xPerPair,
                        act(x),
                        xRows,
                        act(out),
                        options,
                        matrixCores),
                tokens * used);
    }

    @Override
    protected void doCombineExperts(
            Step step, Activations y, Activations routing, int first, int tokens, Activations out) {
        int used = routing.cols() / 2;
        int capacity = Math.min(Math.min(routing.rows(), y.rows() / used), out.rows() - first);
        int p = recorder.padded(tokens, capacity);
        recorder.record(new CombineExperts(act(y), act(routing), first, p, act(out)), tokens);
    }

    @Override
    protected void doRope(Step step, Activations x, int col, int heads, int headDim, int n, Rope rope) {
        Batch batch = step.batch();
        int maxPosition = 0;
        for (int t = 0; t < n; t++) {
            maxPosition = Math.max(maxPosition, batch.position(t));
        }
        RopeTable table = workspace.ropeTable(rope, maxPosition + 1);
        int p = recorder.padded(n, x.rows());
        recorder.record(new RotaryEmbedding(act(x), col, heads, headDim, rope.style(), table, p), n);
    }

    @Override
    protected void doAttention(
            Step step, Activations qkv, KvStorage kv, int layer, int n, AttentionShape shape, Activations out) {
        int group = shape.heads() / shape.kvHeads();
        if (group > LS_ATT_MAX_GROUP || group * shape.headDim() > LS_ATT_MAX_QDIM) {
            throw new GpuBackendException("attention of " + group + " query heads of " + shape.headDim()
                    + " per kv head exceeds the kernel's " + LS_ATT_MAX_QDIM + " values");
        }
        int p = recorder.padded(n, Math.min(qkv.rows(), out.rows()));
        // batch-invariant: every row splits its positions and heads as a row alone does, and no prompt tiles
        boolean invariant = options.batchInvariant();
        Batch batch = step.batch();
        boolean decodeTensorCores = halfTensorCores && Attention.decodeOnTensorCores(shape);
        int splits = Attention.splits(
                device.info().multiprocessors(), shape.kvHeads(), invariant ? 1 : p, decodeTensorCores);
        int parts = Attention.headParts(shape, invariant ? 1 : p, decodeTensorCores);
        int tiles = 0;
        if (!invariant
                && p >= options.gemmMinRows()
                && p >= 4 * batch.sequences()
                && Attention.tiledKernel(shape, halfTensorCores, kv.type() == KvCacheType.Q8_0) != null) {
            int[] t = StepMeta.tiles(batch, p, LS_TILE_Q / group);
            recorder.tiles(t);
            tiles = t.length / 2;
        }
        DeviceBuffer sinks = shape.sinks() == null ? null : workspace.sinks(shape.sinks());
        recorder.record(
                new Attention(
                        act(qkv),
                        (GpuKvStorage) kv,
                        layer,
                        shape,
                        splits,
                        parts,
                        p,
                        act(out),
                        false,
                        tiles,
                        sinks,
                        halfTensorCores,
                        false,
                        !invariant && p >= Attention.TWO_ROUNDS_MIN_ROWS),
                n);
    }

    @Override
    protected void doEncoderAttention(
            Step step, Activations qkv, int[] starts, int sequences, AttentionShape shape, Activations out) {
        if (shape.headDim() > LS_ENC_MAX_DIM) {
            throw new GpuBackendException(
                    "encoder attention heads of " + shape.headDim() + " exceed the kernel's " + LS_ENC_MAX_DIM);
        }
        int rows = starts[sequences];
        int longest = 0;
        for (int s = 0; s < sequences; s++) {
            longest = Math.max(longest, starts[s + 1] - starts[s]);
        }
        int at = recorder.addInts(starts, sequences + 1, sequences + 1);
        recorder.record(new EncoderAttention(act(qkv), at, sequences, rows, longest, shape, act(out)), rows);
    }

    @Override
    protected void doPool(Step step, Activations x, int[] starts, int sequences, Pooling pooling, Activations out) {
        int at = recorder.addInts(starts, sequences + 1, sequences + 1);
        recorder.record(new Pool(act(x), at, sequences, pooling, act(out)), sequences);
    }

    @Override
    protected void doGatherRows(Step step, Activations x, int[] rows, Activations out) {
        int p = recorder.padded(rows.length, out.rows());
        int at = recorder.addInts(rows, rows.length, p);
        recorder.record(new Gather(act(x), at, p, act(out)), rows.length);
    }

    // ---------------------------------------------------------------- sync points

    @Override
    protected void doRead(Activations x, int n, float[] dst, int dstOffset) {
        GpuActivations a = act(x);
        long bytes = (long) n * a.cols() * Float.BYTES;
        MemorySegment staging = executor.readStaging(bytes);
        runWith(s -> s.copyToHost(a.buffer, 0, staging.asSlice(0, bytes)));
        MemorySegment.copy(staging, ValueLayout.JAVA_FLOAT, 0, dst, dstOffset, n * a.cols());
    }

    @Override
    protected void doTopK(Step step, Activations x, int n, int k, int[] ids, float[] values, int at, int[] allowed) {
        choices = null;
        // a mask travels in the step's int region, like token ids: a captured graph reads the current one
        int maskAt = allowed == null ? TopK.NO_MASK : recorder.addInts(allowed, allowed.length, allowed.length);
        recorder.record(new TopK(act(x), n, k, maskAt), n);
        long bytes = (long) n * k * Integer.BYTES;
        MemorySegment staging = executor.readStaging(2 * bytes);
        runWith(s -> {
            s.copyToHost(workspace.scratch(Scratch.Slot.TOPK_IDS), 0, staging.asSlice(0, bytes));
            s.copyToHost(workspace.scratch(Scratch.Slot.TOPK_VALUES), 0, staging.asSlice(bytes, bytes));
        });
        MemorySegment.copy(staging, ValueLayout.JAVA_INT, 0, ids, at, n * k);
        MemorySegment.copy(staging, ValueLayout.JAVA_FLOAT, bytes, values, at, n * k);
    }

    /** On one device (not a shard of a group, whose steps run together): runs go out without waiting. */
    @Override
    public boolean choosesAhead() {
        return group == null;
    }

    @Override
    protected Pending doTopKLater(
            Step step, Activations x, int n, int k, int[] ids, float[] values, int at, int[] allowed) {
        if (!choosesAhead() || (long) n * k > CHOICE_CAPACITY) {
            doTopK(step, x, n, k, ids, values, at, allowed);
            return Pending.DONE;
        }
        int maskAt = allowed == null ? TopK.NO_MASK : recorder.addInts(allowed, allowed.length, allowed.length);
        long bytes = (long) n * k * Integer.BYTES;
        if (choiceIds == null) {
            choiceIds = device.allocate(2L * CHOICE_CAPACITY * Integer.BYTES); // ids, then their values
        }
        recorder.record(new TopK(act(x), n, k, maskAt, choiceIds), n);
        // ids and values side by side, one copy back: between two steps issued back to back, each
        // copy is a pause of the device's stream
        Pending p =
                executor.runLater(recorder, 2 * bytes, (s, staging) -> s.copyToHost(choiceIds, 0, staging), staging -> {
                    MemorySegment.copy(staging, ValueLayout.JAVA_INT, 0, ids, at, n * k);
                    MemorySegment.copy(staging, ValueLayout.JAVA_FLOAT, bytes, values, at, n * k);
                });
        choices = new Choices(n, k);
        return p;
    }

    @Override
    protected void doEmbedChoices(Step step, Weight table, int[] ids, int[] rows, int n, Activations out) {
        Choices c = choices;
        if (c == null) {
            throw new IllegalStateException(name() + ": no choices on the device to take (no topKLater since the last"
                    + " topK, or more than " + CHOICE_CAPACITY + " ids chosen)");
        }
        for (int t = 0; t < n; t++) {
            if (rows[t] >= c.rows()) {
                throw new IllegalArgumentException(
                        "row " + t + " takes the choice of row " + rows[t] + " of " + c.rows());
            }
        }
        int p = recorder.padded(n, out.rows());
        int tokensAt = recorder.addInts(ids, n, p);
        int[] plusOne = new int[n];
        for (int t = 0; t < n; t++) {
            plusOne[t] = rows[t] + 1; // 0, as the padding, for a row with its own token
        }
        int rowsAt = recorder.addInts(plusOne, n, p);
        recorder.record(new TakeChoices(tokensAt, rowsAt, choiceIds, c.k(), (int) table.rows(), p), n);
        recorder.record(new Embed((GpuWeight) table, tokensAt, p, act(out)), n);
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    protected void doClose() {
        recorder.end();
        Cleanup.all(executor::awaitAll, () -> {
            if (choiceIds != null) {
                choiceIds.close();
            }
        });
        LOG.log(System.Logger.Level.DEBUG, "{0} closing: {1}", name(), stats());
        Cleanup.all(executor::close, workspace::close, transfer::close, () -> {
            if (group != null && rank == 0) {
                group.closeFollowers();
            }
        });
    }

    private static GpuActivations act(Activations a) {
        return (GpuActivations) a;
    }

    @Override
    public String toString() {
        return "gpu backend " + name() + " (" + device.info().name() + ", "
                + device.info().arch() + ")";
    }
}
