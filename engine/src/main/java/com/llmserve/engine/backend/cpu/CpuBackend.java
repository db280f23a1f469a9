package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.Gating;
import com.llmserve.engine.backend.Glu;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.Pooling;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.backend.Step;
import com.llmserve.engine.backend.Unary;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.gguf.GgufTensor;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The always-available backend: weights are zero-copy views of the mapped file, work is split
 * over a fixed pool sized to the cores given, inner loops use the Vector API. Every operation
 * runs when it is issued, so a step needs no bookkeeping here. Not final: a test backend may
 * override an operation (to inject a fault) and call it through.
 */
public class CpuBackend extends Backend {

    /**
     * Rows per task of the row-wise operations that run on every thread (RMSNorm, residual adds,
     * rope, unary functions, SwiGLU, the KV writes of attention): enough that a task outweighs
     * handing it to another thread, few enough that a prompt's rows spread over all. LayerNorm,
     * bias adds and pooling run on the calling thread: only encoders use them, on short rows.
     */
    static final int ROWS_PER_TASK = 4;

    /** Chunks per thread of a matrix product's tiles (see {@link Parallel#forEach(int, int, int, Parallel.Range)}). */
    static final int MATMUL_CHUNKS_PER_THREAD = Integer.getInteger("llmserve.cpu.matmul-chunks", 16);

    /** The least weight bytes per chunk and token of a matrix product. */
    static final long MATMUL_CHUNK_BYTES = Long.getLong("llmserve.cpu.matmul-chunk-bytes", 128 * 1024);

    private final Parallel parallel;
    private final boolean pack;
    private final boolean batchInvariant;
    /** The native kernels for the types they cover, or null: the Java kernels run everything. */
    private final NativeKernels nativeKernels;
    /** Quantized activations of the product in progress; the engine loop runs one product at a time. */
    private final ActivationCache activations;

    /** The expert products' inputs and outputs in expert order, kept for the next product. */
    private float[] expertInputs;

    private float[] expertOutputs;

    private final CachedAttention cached;
    private final EncoderAttention encoder;

    /**
     * @param name    the backend's name, {@code cpu} unless a test stands it in for another device
     * @param threads cores to use
     * @param pack    re-lay weights out for this machine's kernels where a type has such a layout
     *                (Q4_0 on AVX-512), releasing the mapped pages they replace; otherwise every
     *                weight stays a zero-copy view of the file
     * @param batchInvariant whether a row's results may not depend on the other rows of its batch:
     *                every product then takes the kernels of a single token, whose sums run in one
     *                order for any batch (the tiles larger batches take otherwise sum differently in
     *                the last bits, enough to flip a greedy near-tie); prompts and large batches cost more
     */
    protected CpuBackend(String name, int threads, boolean pack, boolean batchInvariant, CpuKernels kernels) {
        super(name);
        this.nativeKernels = pack ? nativeKernels(kernels) : null;
        this.parallel = new Parallel(threads);
        this.cached = new CachedAttention(parallel, nativeKernels);
        this.encoder = new EncoderAttention(parallel);
        this.pack = pack;
        this.batchInvariant = batchInvariant;
        this.activations = new ActivationCache(batchInvariant);
    }

    protected CpuBackend(String name, int threads, boolean pack, boolean batchInvariant) {
        this(name, threads, pack, batchInvariant, CpuKernels.fromSystemProperty());
    }

    protected CpuBackend(String name, int threads, boolean pack) {
        this(name, threads, pack, false);
    }

    /**
     * @param kernels which kernels multiply quantized weights: the native ones (Q4_0, Q8_0, Q4_K, Q6_K,
     *                MXFP4 weights, packed into their layout; needs {@code pack}) or the Vector API ones;
     *                a backend without {@code pack} runs the Java kernels on the zero-copy views
     */
    public CpuBackend(int threads, boolean pack, boolean batchInvariant, CpuKernels kernels) {
        this("cpu", threads, pack, batchInvariant, kernels);
    }

    /** As {@link #CpuBackend(int, boolean, boolean, CpuKernels)} with {@code llmserve.engine.cpu-kernels} (default auto). */
    public CpuBackend(int threads, boolean pack, boolean batchInvariant) {
        this("cpu", threads, pack, batchInvariant);
    }

    public CpuBackend(int threads, boolean pack) {
        this(threads, pack, false);
    }

    public CpuBackend(int threads) {
        this(threads, true);
    }

    /** A backend using every available processor. */
    public CpuBackend() {
        this(Runtime.getRuntime().availableProcessors());
    }

    public int threads() {
        return parallel.threads();
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CpuBackend.class);

    /** The native kernels {@code choice} asks for and this machine runs, or null for the Java ones. */
    private static NativeKernels nativeKernels(CpuKernels choice) {
        if (choice == CpuKernels.JAVA) {
            LOG.info("CPU kernels: Java (Vector API), as llmserve.engine.cpu-kernels asks");
            return null;
        }
        var loaded = NativeKernels.load();
        if (loaded.isPresent()) {
            LOG.info(
                    "CPU kernels: native {} for {} weights, Java (Vector API) for the other types",
                    loaded.get().isa.suffix,
                    loaded.get().types());
            return loaded.get();
        }
        String why = NativeKernels.unavailable().orElse("unknown");
        if (choice == CpuKernels.NATIVE) {
            throw new IllegalStateException(
                    "llmserve.engine.cpu-kernels=native, but the native CPU kernels cannot run here: " + why);
        }
        LOG.info("CPU kernels: Java (Vector API); native ones unavailable: {}", why);
        return null;
    }

    /** Whether the native kernels run on this machine (what {@link CpuKernels#AUTO} then takes). */
    public static boolean nativeKernelsAvailable() {
        return NativeKernels.best().isPresent();
    }

    /** The kernels quantized products run on: {@code "native <isa>"} or {@code "java"}. */
    public String kernels() {
        return nativeKernels == null ? "java" : nativeKernels.toString();
    }

    @Override
    public String description() {
        return name() + " (" + parallel.threads() + " threads, " + kernels() + " kernels"
                + (batchInvariant ? ", batch-invariant" : "") + ")";
    }

    /** Whether a row's results do not depend on the other rows of its batch. */
    public boolean batchInvariant() {
        return batchInvariant;
    }

    @Override
    protected Weight doUploadMatrix(String name, List<GgufTensor> parts, int cols) {
        List<CpuTensor> tensors = new ArrayList<>(parts.size());
        Arena arena = packInto(parts, tensors);
        return CpuWeight.matrix(this, name, Weight.Kind.MATRIX, tensors, arena);
    }

    @Override
    protected Weight doUploadExperts(String name, List<GgufTensor> stacks, int experts, int rows, int cols) {
        List<CpuTensor> tensors = new ArrayList<>(stacks.size());
        // a packed layout groups rows by PackedRows.GROUP: each expert must start a group
        Arena arena = packInto(stacks, tensors, t -> t.dim(1) % PackedRows.GROUP == 0);
        return CpuWeight.experts(this, name, tensors, experts, rows, arena);
    }

    private Arena packInto(List<GgufTensor> parts, List<CpuTensor> tensors) {
        return packInto(parts, tensors, t -> true);
    }

    /**
     * Views of {@code parts} into {@code tensors}, packed where the type has a layout here and
     * {@code packable} allows; the packed copies' memory, or null.
     */
    private Arena packInto(List<GgufTensor> parts, List<CpuTensor> tensors, Predicate<GgufTensor> packable) {
        Arena arena = pack ? Arena.ofShared() : null;
        boolean packed = false;
        for (GgufTensor t : parts) {
            CpuTensor c = CpuTensor.of(t);
            if (arena != null && packable.test(t) && c.pack(arena, nativeKernels)) {
                MappedPages.release(t.data());
                packed = true;
            }
            tensors.add(c);
        }
        if (arena != null && !packed) {
            arena.close();
            arena = null;
        }
        return arena;
    }

    @Override
    protected Weight doUploadTable(GgufTensor tensor) {
        return CpuWeight.matrix(this, tensor.name(), Weight.Kind.TABLE, List.of(CpuTensor.of(tensor)), null);
    }

    @Override
    protected Weight doUploadVector(String name, float[] values) {
        return CpuWeight.vector(this, name, values);
    }

    @Override
    protected Activations doAllocate(int rows, int cols) {
        return new CpuActivations(this, rows, cols);
    }

    @Override
    protected KvStorage doAllocateKv(
            int[] groupOfLayer, int[] blocksOfGroup, int blockSize, int kvDim, KvCacheType type) {
        return new CpuKvStorage(this, groupOfLayer, blocksOfGroup, blockSize, kvDim, type);
    }

    /** F16 and Q8_0 (quantized as llama.cpp's {@code --cache-type-k/-v q8_0}). */
    @Override
    public Set<KvCacheType> kvCacheTypes() {
        return EnumSet.of(KvCacheType.F16, KvCacheType.Q8_0);
    }

    @Override
    protected void doWrite(float[] src, int srcOffset, int n, Activations x) {
        System.arraycopy(src, srcOffset, data(x), 0, n * x.cols());
    }

    @Override
    protected void doEmbed(Step step, Weight table, int[] ids, int n, Activations out) {
        CpuWeight w = (CpuWeight) table;
        float[] o = data(out);
        for (int t = 0; t < n; t++) {
            w.dequantizeRow(ids[t], o, t * out.cols());
        }
    }

    @Override
    protected void doRmsNorm(Step step, Activations x, Weight weight, float eps, int n, Activations out) {
        float[] in = data(x);
        float[] o = data(out);
        float[] w = ((CpuWeight) weight).vector();
        int d = x.cols();
        parallel.forEach(n, ROWS_PER_TASK, (from, to) -> {
            for (int t = from; t < to; t++) {
                double mean = FloatMath.sumOfSquares(in, t * d, d) / d;
                float inv = (float) (1.0 / Math.sqrt(mean + eps));
                FloatMath.scaleByWeight(in, t * d, inv, w, o, t * d, d);
            }
        });
    }

    @Override
    protected void doLayerNorm(
            Step step, Activations x, Weight weight, Weight bias, float eps, int n, Activations out) {
        float[] in = data(x);
        float[] o = data(out);
        float[] w = ((CpuWeight) weight).vector();
        float[] b = ((CpuWeight) bias).vector();
        int d = x.cols();
        for (int t = 0; t < n; t++) {
            int base = t * d;
            // rounded as ggml's norm: sums in double of float terms, variance and scale in float
            float mean = (float) (FloatMath.sum(in, base, d) / d);
            double sum2 = 0;
            for (int i = 0; i < d; i++) {
                float c = in[base + i] - mean;
                sum2 += c * c;
            }
            float variance = (float) (sum2 / d);
            float inv = 1f / (float) Math.sqrt(variance + eps);
            for (int i = 0; i < d; i++) {
                o[base + i] = (in[base + i] - mean) * inv * w[i] + b[i];
            }
        }
    }

    @Override
    protected void doMatmul(Step step, Weight weight, Activations x, int n, Activations out) {
        CpuWeight w = (CpuWeight) weight;
        float[] in = data(x);
        float[] o = data(out);
        List<CpuTensor> parts = w.parts();
        PreparedInput[] prepared = new PreparedInput[parts.size()];
        activations.reset();
        for (int p = 0; p < parts.size(); p++) {
            prepared[p] = activations.prepare(parts.get(p), in, n, parallel);
        }
        // tasks are tiles of one part each, so every tile starts at a multiple of TileGemm.ROWS
        // within its tensor, where packed layouts have their groups
        int[] firstTile = new int[parts.size() + 1];
        for (int p = 0; p < parts.size(); p++) {
            firstTile[p + 1] = firstTile[p] + (int) ((parts.get(p).rows() + TileGemm.ROWS - 1) / TileGemm.ROWS);
        }
        // up to 16 chunks per thread: the wait for the thread that takes the last chunk is half a
        // chunk on average; but at least MATMUL_CHUNK_BYTES of weights per chunk and token, so that
        // the calls of a small decode product do not outweigh its work
        long tileBytes = (long) TileGemm.ROWS * parts.getFirst().rowBytes * n;
        int grain = (int) Math.max(1, Math.min(firstTile[parts.size()], MATMUL_CHUNK_BYTES / tileBytes));
        parallel.forEach(firstTile[parts.size()], grain, MATMUL_CHUNKS_PER_THREAD, (fromTile, toTile) -> {
            for (int p = 0; p < parts.size(); p++) {
                int lo = Math.max(fromTile, firstTile[p]);
                int hi = Math.min(toTile, firstTile[p + 1]);
                if (lo < hi) {
                    CpuTensor part = parts.get(p);
                    long rowFrom = (long) (lo - firstTile[p]) * TileGemm.ROWS;
                    long rowTo = Math.min(part.rows(), (long) (hi - firstTile[p]) * TileGemm.ROWS);
                    part.matmul(prepared[p], n, o, (int) w.firstRow(p), out.cols(), rowFrom, rowTo);
                }
            }
        });
    }

    @Override
    protected void doAddBias(Step step, Activations x, Weight bias, int n) {
        float[] a = data(x);
        float[] b = ((CpuWeight) bias).vector();
        for (int t = 0; t < n; t++) {
            FloatMath.add(a, t * x.cols(), b, 0, b.length);
        }
    }

    @Override
    protected void doAdd(Step step, Activations x, Activations y, int n) {
        float[] a = data(x);
        float[] b = data(y);
        int d = x.cols();
        parallel.forEach(n, ROWS_PER_TASK, (from, to) -> FloatMath.add(a, from * d, b, from * d, (to - from) * d));
    }

    @Override
    protected void doUnary(Step step, Unary f, Activations x, int n) {
        float[] a = data(x);
        int d = x.cols();
        switch (f) {
            case GELU -> parallel.forEach(n, ROWS_PER_TASK, (from, to) -> FloatMath.gelu(a, from * d, (to - from) * d));
            case TANH ->
                parallel.forEach(n, ROWS_PER_TASK, (from, to) -> {
                    for (int i = from * d; i < to * d; i++) {
                        a[i] = (float) Math.tanh(a[i]);
                    }
                });
        }
    }

    @Override
    protected void doSwiGlu(Step step, Activations gateUp, int n, Activations out) {
        float[] gu = data(gateUp);
        float[] o = data(out);
        int f = out.cols();
        parallel.forEach(n, ROWS_PER_TASK, (from, to) -> {
            for (int t = from; t < to; t++) {
                FloatMath.swiGlu(gu, t * 2 * f, gu, t * 2 * f + f, o, t * f, f);
            }
        });
    }

    @Override
    protected void doGeGlu(Step step, Activations gateUp, int n, Activations out) {
        float[] gu = data(gateUp);
        float[] o = data(out);
        int f = out.cols();
        parallel.forEach(n, ROWS_PER_TASK, (from, to) -> {
            for (int t = from; t < to; t++) {
                FloatMath.geGlu(gu, t * 2 * f, gu, t * 2 * f + f, o, t * f, f);
            }
        });
    }

    @Override
    protected void doScale(Step step, Activations x, float factor, int n) {
        float[] a = data(x);
        int d = x.cols();
        parallel.forEach(n, ROWS_PER_TASK, (from, to) -> {
            for (int i = from * d; i < to * d; i++) {
                a[i] *= factor;
            }
        });
    }

    @Override
    protected void doHeadRmsNorm(
            Step step, Activations x, int col, int heads, int headDim, Weight weight, float eps, int n) {
        float[] a = data(x);
        float[] w = ((CpuWeight) weight).vector();
        int cols = x.cols();
        parallel.forEach(n, ROWS_PER_TASK, (from, to) -> {
            for (int t = from; t < to; t++) {
                for (int h = 0; h < heads; h++) {
                    int at = t * cols + col + h * headDim;
                    // as doRmsNorm: ggml sums the squares in double, then scales in float
                    double mean = FloatMath.sumOfSquares(a, at, headDim) / headDim;
                    float inv = (float) (1.0 / Math.sqrt(mean + eps));
                    FloatMath.scaleByWeight(a, at, inv, w, a, at, headDim);
                }
            }
        });
    }

    @Override
    protected void doRouteExperts(
            Step step, Activations logits, int first, int tokens, float scale, Gating gating, Activations routing) {
        float[] z = data(logits);
        float[] r = data(routing);
        int experts = logits.cols();
        int used = routing.cols() / 2;
        float[] probabilities = new float[experts];
        for (int t = 0; t < tokens; t++) {
            int from = (first + t) * experts;
            switch (gating) {
                case SOFTMAX -> SoftmaxRouting.route(z, from, experts, used, scale, probabilities, r, t * 2 * used);
                case SOFTMAX_OF_TOP_K ->
                    SoftmaxRouting.routeTopK(z, from, experts, used, scale, probabilities, r, t * 2 * used);
            }
        }
    }

    @Override
    protected void doAddExpertBias(
            Step step, Activations y, int col, int width, Weight bias, Activations routing, int tokens) {
        float[] a = data(y);
        float[] r = data(routing);
        float[] b = ((CpuWeight) bias).vector();
        int experts = b.length / width;
        int used = routing.cols() / 2;
        int cols = y.cols();
        for (int t = 0; t < tokens; t++) {
            for (int j = 0; j < used; j++) {
                int e = (int) r[t * 2 * used + j];
                if (e >= 0 && e < experts) {
                    FloatMath.add(a, (t * used + j) * cols + col, b, e * width, width);
                }
            }
        }
    }

    /** As ggml's {@code swiglu_oai}: {@code expf} in float, the clamps, then {@code out_glu * (y + 1)}. */
    @Override
    protected void doSwiGluOai(Step step, Activations gateUp, int n, Activations out) {
        float[] gu = data(gateUp);
        float[] o = data(out);
        int f = out.cols();
        parallel.forEach(n, ROWS_PER_TASK, (from, to) -> {
            for (int t = from; t < to; t++) {
                int g = t * 2 * f;
                for (int i = 0; i < f; i++) {
                    float x = Math.min(gu[g + i], Glu.OAI_LIMIT);
                    float y = Math.min(Math.max(gu[g + f + i], -Glu.OAI_LIMIT), Glu.OAI_LIMIT);
                    float glu = x / (1f + (float) Math.exp(Glu.OAI_ALPHA * -x));
                    o[t * f + i] = glu * (y + 1f);
                }
            }
        });
    }

    @Override
    protected void doExpertMatmul(
            Step step,
            Weight weight,
            Activations routing,
            int tokens,
            int xFirst,
            boolean xPerPair,
            Activations x,
            Activations out) {
        float[] r = data(routing);
        int used = routing.cols() / 2;
        int[] expert = new int[tokens * used];
        int[] xRow = new int[tokens * used];
        int[] outRow = new int[tokens * used];
        int pairs = 0;
        for (int t = 0; t < tokens; t++) {
            for (int j = 0; j < used; j++) {
                int p = t * used + j;
                int e = (int) r[t * 2 * used + j];
                if (e >= 0 && e < weight.experts()) { // a pair without an expert is skipped
                    expert[pairs] = e;
                    xRow[pairs] = xPerPair ? p : xFirst + t;
                    outRow[pairs++] = p;
                }
            }
        }
        multiplyPairs((CpuWeight) weight, expert, xRow, outRow, pairs, x, out);
    }

    /**
     * {@code out[outRow[p]] = W[expert[p]] x[xRow[p]]} for {@code p < pairs}, each chosen expert
     * once, over the rows of every pair that chose it.
     */
    private void multiplyPairs(
            CpuWeight w, int[] expert, int[] xRow, int[] outRow, int pairs, Activations x, Activations out) {
        float[] in = data(x);
        float[] o = data(out);
        int k = w.cols();
        int rows = (int) w.rows();
        List<CpuTensor> stacks = w.parts();
        int[] order = new int[pairs];
        int[] count = new int[w.experts() + 1];
        for (int p = 0; p < pairs; p++) {
            count[expert[p] + 1]++;
        }
        for (int e = 0; e < w.experts(); e++) {
            count[e + 1] += count[e];
        }
        int[] next = Arrays.copyOf(count, w.experts());
        for (int p = 0; p < pairs; p++) {
            order[next[expert[p]]++] = p;
        }
        if (pairs > 0 && onNativeKernels(stacks)) {
            multiplyPairsNative(w, order, count, xRow, outRow, pairs, in, o);
            return;
        }
        // each chosen expert once, over the rows of every pair that chose it
        for (int e = 0; e < w.experts(); e++) {
            int m = count[e + 1] - count[e];
            if (m == 0) {
                continue;
            }
            float[] xe = new float[m * k];
            for (int i = 0; i < m; i++) {
                System.arraycopy(in, xRow[order[count[e] + i]] * k, xe, i * k, k);
            }
            float[] ye = new float[m * rows];
            int col = 0;
            for (CpuTensor stack : stacks) {
                int stackRows = (int) (stack.rows() / w.experts());
                long first = (long) e * stackRows;
                activations.reset();
                PreparedInput prepared = activations.prepare(stack, xe, m, parallel);
                int yOffset = (int) (col - first); // the expert's rows land at columns [col, col + stackRows)
                int tiles = (stackRows + TileGemm.ROWS - 1) / TileGemm.ROWS;
                parallel.forEach(
                        tiles,
                        1,
                        (from, to) -> stack.matmul(
                                prepared,
                                m,
                                ye,
                                yOffset,
                                rows,
                                first + (long) from * TileGemm.ROWS,
                                first + Math.min(stackRows, (long) to * TileGemm.ROWS)));
                col += stackRows;
            }
            for (int i = 0; i < m; i++) {
                System.arraycopy(ye, i * rows, o, outRow[order[count[e] + i]] * rows, rows);
            }
        }
    }

    /**
     * {@link #multiplyPairs} on the native kernels, whose rows come out the same bits for any batch:
     * the pairs' inputs quantized once, in expert order, and every chosen expert's tiles in one job.
     * A decode step's experts are short (a few hundred KB each), so a job per expert and stack cost
     * more in hand-offs between threads and in their tails than the products themselves.
     */
    private void multiplyPairsNative(
            CpuWeight w, int[] order, int[] count, int[] xRow, int[] outRow, int pairs, float[] in, float[] o) {
        int k = w.cols();
        int rows = (int) w.rows();
        List<CpuTensor> stacks = w.parts();
        float[] xs = expertInputs = grown(expertInputs, pairs * k);
        for (int i = 0; i < pairs; i++) {
            System.arraycopy(in, xRow[order[i]] * k, xs, i * k, k);
        }
        activations.reset();
        NativeQ8[] prepared = new NativeQ8[stacks.size()];
        // an expert's tiles, stack after stack; its rows of a stack land at columns [col[i], col[i + 1])
        int[] firstTile = new int[stacks.size() + 1];
        int[] col = new int[stacks.size() + 1];
        for (int i = 0; i < stacks.size(); i++) {
            CpuTensor stack = stacks.get(i);
            prepared[i] = activations.prepare(stack, xs, pairs, parallel).nativeQ8();
            int stackRows = (int) (stack.rows() / w.experts());
            firstTile[i + 1] = firstTile[i] + (stackRows + TileGemm.ROWS - 1) / TileGemm.ROWS;
            col[i + 1] = col[i] + stackRows;
        }
        int[] chosen = new int[w.experts()];
        int experts = 0;
        for (int e = 0; e < w.experts(); e++) {
            if (count[e + 1] > count[e]) {
                chosen[experts++] = e;
            }
        }
        int perExpert = firstTile[stacks.size()];
        float[] ys = expertOutputs = grown(expertOutputs, pairs * rows);
        // as doMatmul's chunks: at least MATMUL_CHUNK_BYTES of weights per chunk and token
        long tileBytes = (long) TileGemm.ROWS * stacks.getFirst().rowBytes * ((pairs + experts - 1) / experts);
        int tiles = experts * perExpert;
        int grain = (int) Math.max(1, Math.min(tiles, MATMUL_CHUNK_BYTES / tileBytes));
        parallel.forEach(tiles, grain, MATMUL_CHUNKS_PER_THREAD, (from, to) -> {
            for (int c = from / perExpert; c * perExpert < to; c++) {
                int e = chosen[c];
                int lo = Math.max(from - c * perExpert, 0);
                int hi = Math.min(to - c * perExpert, perExpert);
                for (int i = 0; i < stacks.size(); i++) {
                    int a = Math.max(lo, firstTile[i]);
                    int b = Math.min(hi, firstTile[i + 1]);
                    if (a < b) {
                        int stackRows = col[i + 1] - col[i];
                        long first = (long) e * stackRows;
                        stacks.get(i)
                                .matmulNative(
                                        prepared[i],
                                        count[e],
                                        count[e + 1] - count[e],
                                        ys,
                                        (int) (count[e] * rows + col[i] - first),
                                        rows,
                                        first + (long) (a - firstTile[i]) * TileGemm.ROWS,
                                        first + Math.min(stackRows, (long) (b - firstTile[i]) * TileGemm.ROWS));
                    }
                }
            }
        });
        for (int i = 0; i < pairs; i++) {
            System.arraycopy(ys, i * rows, o, outRow[order[i]] * rows, rows);
        }
    }

    /** Whether every part multiplies on the native kernels. */
    private static boolean onNativeKernels(List<CpuTensor> parts) {
        for (CpuTensor part : parts) {
            if (part.nativeKernels() == null) {
                return false;
            }
        }
        return true;
    }

    /** {@code buffer}, or a larger one when it holds fewer than {@code n} floats. */
    private static float[] grown(float[] buffer, int n) {
        return buffer != null && buffer.length >= n ? buffer : new float[n];
    }

    @Override
    protected void doCombineExperts(
            Step step, Activations y, Activations routing, int first, int tokens, Activations out) {
        float[] src = data(y);
        float[] r = data(routing);
        float[] dst = data(out);
        int d = out.cols();
        int used = routing.cols() / 2;
        parallel.forEach(tokens, ROWS_PER_TASK, (from, to) -> {
            for (int t = from; t < to; t++) {
                int w = t * 2 * used + used;
                int row = (first + t) * d;
                // each product rounded before it is added, as ggml weights the outputs, then sums them;
                // slot by slot over the whole row, so that the loops vectorize
                float firstWeight = r[w];
                for (int c = 0; c < d; c++) {
                    dst[row + c] = firstWeight * src[t * used * d + c];
                }
                for (int j = 1; j < used; j++) {
                    float weight = r[w + j];
                    int slot = (t * used + j) * d;
                    for (int c = 0; c < d; c++) {
                        dst[row + c] = dst[row + c] + weight * src[slot + c];
                    }
                }
            }
        });
    }

    @Override
    protected void doRope(Step step, Activations x, int col, int heads, int headDim, int n, Rope rope) {
        Batch batch = step.batch();
        float[] a = data(x);
        int cols = x.cols();
        int half = rope.dims() / 2;
        float[] theta = new float[half];
        for (int i = 0; i < half; i++) {
            theta[i] = rope.theta(i);
        }
        float magnitude = rope.magnitude();
        parallel.forEach(n, ROWS_PER_TASK, (from, to) -> {
            float[] cos = new float[half];
            float[] sin = new float[half];
            for (int t = from; t < to; t++) {
                int pos = batch.position(t);
                for (int i = 0; i < half; i++) {
                    double angle = (double) pos * theta[i];
                    cos[i] = (float) Math.cos(angle) * magnitude;
                    sin[i] = (float) Math.sin(angle) * magnitude;
                }
                int rowBase = t * cols + col;
                for (int h = 0; h < heads; h++) {
                    int base = rowBase + h * headDim;
                    for (int i = 0; i < half; i++) {
                        int i0 = rope.style() == Rope.Style.NORMAL ? base + 2 * i : base + i;
                        int i1 = rope.style() == Rope.Style.NORMAL ? i0 + 1 : i0 + half;
                        float v0 = a[i0];
                        float v1 = a[i1];
                        a[i0] = v0 * cos[i] - v1 * sin[i];
                        a[i1] = v0 * sin[i] + v1 * cos[i];
                    }
                }
            }
        });
    }

    @Override
    protected void doAttention(
            Step step, Activations qkv, KvStorage kv, int layer, int n, AttentionShape shape, Activations out) {
        cached.run((CpuActivations) qkv, (CpuKvStorage) kv, layer, step.batch(), n, shape, (CpuActivations) out);
    }

    @Override
    protected void doEncoderAttention(
            Step step, Activations qkv, int[] starts, int sequences, AttentionShape shape, Activations out) {
        encoder.run(data(qkv), qkv.cols(), starts, sequences, shape, data(out));
    }

    /** The mean as llama.cpp forms it: each row scaled by {@code 1/count} and summed in float32. */
    @Override
    protected void doPool(Step step, Activations x, int[] starts, int sequences, Pooling pooling, Activations out) {
        float[] in = data(x);
        float[] o = data(out);
        int d = x.cols();
        for (int s = 0; s < sequences; s++) {
            int first = starts[s];
            int end = starts[s + 1];
            switch (pooling) {
                case CLS -> System.arraycopy(in, first * d, o, s * d, d);
                case LAST -> System.arraycopy(in, (end - 1) * d, o, s * d, d);
                case MEAN -> {
                    float inv = 1f / (end - first);
                    java.util.Arrays.fill(o, s * d, (s + 1) * d, 0f);
                    for (int t = first; t < end; t++) {
                        FloatMath.axpy(inv, in, t * d, o, s * d, d);
                    }
                }
            }
        }
    }

    /** The span that holds {@code t}: the last of {@code starts[0..sequences)} at or before it. */
    static int spanOf(int[] starts, int sequences, int t) {
        int lo = 0;
        int hi = sequences - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (starts[mid] <= t) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    @Override
    protected void doGatherRows(Step step, Activations x, int[] rows, Activations out) {
        float[] in = data(x);
        float[] o = data(out);
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(in, rows[i] * x.cols(), o, i * out.cols(), x.cols());
        }
    }

    @Override
    protected void doRead(Activations x, int n, float[] dst, int dstOffset) {
        System.arraycopy(data(x), 0, dst, dstOffset, n * x.cols());
    }

    @Override
    protected void doTopK(Step step, Activations x, int n, int k, int[] ids, float[] values, int at, int[] allowed) {
        float[] a = data(x);
        int cols = x.cols();
        int words = maskWords(cols);
        for (int t = 0; t < n; t++) {
            java.util.Arrays.fill(ids, at + t * k, at + (t + 1) * k, Integer.MAX_VALUE);
            java.util.Arrays.fill(values, at + t * k, at + (t + 1) * k, Float.NEGATIVE_INFINITY);
            selectTop(a, t * cols, cols, k, ids, values, at + t * k, allowed, t * words);
        }
    }

    /**
     * The k largest of {@code v[from .. from+cols)} by insertion into a sorted run: k is small, and
     * a later column enters only when strictly larger, so ties keep the lower column first. Columns
     * a mask ({@code allowed} from {@code maskAt}, or null) leaves out are skipped.
     */
    private static void selectTop(
            float[] v, int from, int cols, int k, int[] ids, float[] values, int at, int[] allowed, int maskAt) {
        int size = 0;
        for (int c = 0; c < cols; c++) {
            if (allowed != null && (allowed[maskAt + (c >>> 5)] >>> (c & 31) & 1) == 0) {
                continue;
            }
            float value = v[from + c];
            if (size == k && !(value > values[at + k - 1])) {
                continue;
            }
            int j = size < k ? size++ : k - 1;
            while (j > 0 && value > values[at + j - 1]) {
                values[at + j] = values[at + j - 1];
                ids[at + j] = ids[at + j - 1];
                j--;
            }
            values[at + j] = value;
            ids[at + j] = c;
        }
    }

    private static float[] data(Activations a) {
        return ((CpuActivations) a).data;
    }

    @Override
    protected void doClose() {
        parallel.close();
    }

    @Override
    public String toString() {
        return name() + " backend (" + parallel.threads() + " threads, " + kernels() + " kernels, " + Simd.F.length()
                + " float lanes"
                + (Simd.ENABLED ? "" : ", vector paths off") + ")";
    }
}
