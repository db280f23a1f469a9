package com.llmserve.engine.backend;

import static com.llmserve.engine.gguf.GgmlType.BF16;
import static com.llmserve.engine.gguf.GgmlType.F16;
import static com.llmserve.engine.gguf.GgmlType.F32;
import static com.llmserve.engine.gguf.GgmlType.MXFP4;
import static com.llmserve.engine.gguf.GgmlType.Q2_K;
import static com.llmserve.engine.gguf.GgmlType.Q3_K;
import static com.llmserve.engine.gguf.GgmlType.Q4_0;
import static com.llmserve.engine.gguf.GgmlType.Q4_1;
import static com.llmserve.engine.gguf.GgmlType.Q4_K;
import static com.llmserve.engine.gguf.GgmlType.Q5_0;
import static com.llmserve.engine.gguf.GgmlType.Q5_1;
import static com.llmserve.engine.gguf.GgmlType.Q5_K;
import static com.llmserve.engine.gguf.GgmlType.Q6_K;
import static com.llmserve.engine.gguf.GgmlType.Q8_0;

import com.llmserve.engine.backend.cpu.CpuTensor;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufTensor;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The compute contract every model runs on: a small set of batch-first operations over
 * backend-owned {@link Weight}s, {@link Activations} and {@link KvStorage}. Activations are float32
 * matrices whose rows are the tokens of a {@link Batch} (many sequences at different positions).
 *
 * <p><b>One checked contract.</b> Every public method is final and checks its arguments the same
 * way for every backend (ownership, closed handles, shapes, row counts, the step), then calls the
 * backend's protected {@code do...} implementation, which may take them as checked. A backend adds
 * checks only for limits of its own (a GPU kernel's largest head size).
 *
 * <p><b>Steps.</b> Operations run inside a {@link Step} ({@link #beginStep}); uploads, allocations
 * and {@link #write} may happen anywhere. {@link #read} and {@link #topK} are the only ways results
 * reach the host; when a step closes, everything issued in it has run.
 *
 * <p><b>Rows.</b> An operation computes rows {@code [0, n)} of its outputs from rows {@code [0, n)}
 * of its inputs. Rows {@code n} and beyond of its outputs (up to {@code rows()}) are undefined
 * afterwards: a GPU pads a step to a bucket of rows so that one captured graph serves every batch
 * of that bucket, and computes the padding rows too. Never keep data there across an operation.
 *
 * <p>A backend serves one forward pass at a time (the engine loop); it may use threads inside an
 * operation.
 */
public abstract class Backend implements AutoCloseable {

    /** The ggml types every backend computes with (others are refused at upload, naming the tensor). */
    public static final Set<GgmlType> WEIGHT_TYPES = Collections.unmodifiableSet(
            EnumSet.of(F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, MXFP4));

    /** The largest {@code k} that {@link #topK} takes. */
    public static final int MAX_TOP_K = 64;

    private final String name;
    private Step step;
    private boolean closed;

    protected Backend(String name) {
        this.name = name;
    }

    /** A short name for logs and metrics: {@code cpu}, {@code cuda:0}, {@code hip:1}. */
    public final String name() {
        return name;
    }

    /**
     * Whether this backend computes on an accelerator whose faults are its own (a GPU): the service
     * guards such a model with a circuit breaker and may give it a CPU copy. The CPU's failures are
     * the process's own.
     */
    public boolean accelerated() {
        return false;
    }

    /** Where it runs, for logs and health details: {@code cuda:0 (NVIDIA H100, sm_90)}, {@code cpu (16 threads)}. */
    public abstract String description();

    /**
     * The backends one model is split over, in rank order, this one first: a tensor-parallel
     * model's shards (each computing its part of every layer's heads and feed-forward columns), or
     * this backend alone.
     */
    public List<? extends Backend> shards() {
        return List.of(this);
    }

    /**
     * The bytes of its device's memory free now, for sizing a KV cache from what the weights left;
     * empty where the backend's memory is the host's (the CPU).
     */
    public OptionalLong freeMemory() {
        return OptionalLong.empty();
    }

    /**
     * The operations of {@link Capability} this backend computes; every one unless it says
     * otherwise. An operation that needs a missing one is refused with
     * {@link UnsupportedOperationException}, and a model that needs one is refused at load.
     */
    public Set<Capability> capabilities() {
        return EnumSet.allOf(Capability.class);
    }

    private void require(Capability c, String what) {
        if (!capabilities().contains(c)) {
            throw new UnsupportedOperationException(
                    name + " does not compute " + what + " (" + c.name().toLowerCase(java.util.Locale.ROOT) + ")");
        }
    }

    // ---------------------------------------------------------------- uploads and memory

    /**
     * Uploads a weight matrix made of the rows of {@code parts} in order (all of one row length),
     * so that fused projections (q|k|v, gate|up) run as one matrix multiplication.
     *
     * @throws UnsupportedTensorTypeException for a part of a type no backend computes with
     */
    public final Weight uploadMatrix(String name, List<GgufTensor> parts) {
        checkOpen();
        if (parts.isEmpty()) {
            throw new IllegalArgumentException(name + ": a matrix needs at least one part");
        }
        long rowLength = parts.getFirst().rowLength();
        if (rowLength > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(name + ": rows of " + rowLength + " elements are too long");
        }
        for (GgufTensor t : parts) {
            if (t.rowLength() != rowLength) {
                throw new IllegalArgumentException(
                        name + ": fused parts have different row lengths " + rowLength + " and " + t.rowLength());
            }
            checkType(t);
        }
        return doUploadMatrix(name, List.copyOf(parts), (int) rowLength);
    }

    public final Weight uploadMatrix(GgufTensor tensor) {
        return uploadMatrix(tensor.name(), List.of(tensor));
    }

    /**
     * Uploads a mixture's experts from the stacked tensors of a layer ({@code ffn_gate_exps},
     * {@code ffn_up_exps}: {@code [cols, rows_i, experts]} each): expert {@code e}'s matrix is the
     * rows of expert {@code e} of every stack in order, so gate and up stay fused per expert.
     *
     * @throws UnsupportedTensorTypeException for a stack of a type no backend computes with
     */
    public final Weight uploadExperts(String name, List<GgufTensor> stacks) {
        checkOpen();
        if (stacks.isEmpty()) {
            throw new IllegalArgumentException(name + ": experts need at least one stack");
        }
        GgufTensor first = stacks.getFirst();
        long rows = 0;
        for (GgufTensor t : stacks) {
            if (t.dims() != 3 || t.dim(0) != first.dim(0) || t.dim(2) != first.dim(2)) {
                throw new IllegalArgumentException(
                        name + ": stacks " + first + " and " + t + " differ in row length or experts");
            }
            checkType(t);
            rows += t.dim(1);
        }
        if (first.dim(0) > Integer.MAX_VALUE - 16 || first.dim(2) > Integer.MAX_VALUE || rows > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(name + ": experts of " + first + " are too large");
        }
        if (first.dim(2) > MAX_ROUTED_EXPERTS) {
            throw new IllegalArgumentException(
                    name + ": " + first.dim(2) + " experts, at most " + MAX_ROUTED_EXPERTS + " are supported");
        }
        return doUploadExperts(name, List.copyOf(stacks), (int) first.dim(2), (int) rows, (int) first.dim(0));
    }

    /** Uploads an embedding table, read a row at a time by {@link #embed}. */
    public final Weight uploadTable(GgufTensor tensor) {
        checkOpen();
        if (tensor.rowLength() > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(tensor.name() + ": rows of " + tensor.rowLength() + " are too long");
        }
        checkType(tensor);
        return doUploadTable(tensor);
    }

    /** Uploads 1-D tensors (norm weights, biases) concatenated, as float32. */
    public final Weight uploadVector(String name, List<GgufTensor> parts) {
        checkOpen();
        long total = parts.stream().mapToLong(GgufTensor::elementCount).sum();
        if (total < 1 || total > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(name + ": a vector of " + total + " elements");
        }
        float[] values = new float[(int) total];
        int at = 0;
        for (GgufTensor t : parts) {
            checkType(t);
            // the CPU's tensor classes define each format's values: both backends take these floats
            CpuTensor.of(t.name(), t.type(), t.data(), 1, (int) t.elementCount())
                    .dequantizeRow(0, values, at);
            at += (int) t.elementCount();
        }
        return doUploadVector(name, values);
    }

    public final Weight uploadVector(GgufTensor tensor) {
        return uploadVector(tensor.name(), List.of(tensor));
    }

    /** Scratch activations of {@code rows x cols} float32, zero-initialised. */
    public final Activations allocate(int rows, int cols) {
        checkOpen();
        if (rows < 1 || cols < 1 || (long) rows * cols > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("activations of " + rows + " x " + cols + " rows and columns");
        }
        return doAllocate(rows, cols);
    }

    /** Key/value pages for every layer: {@code blocks * blockSize} token slots of {@code kvDim} values each. */
    public final KvStorage allocateKv(int layers, int blocks, int blockSize, int kvDim) {
        if (layers < 1) {
            throw new IllegalArgumentException("KV storage needs positive sizes: " + layers + " layers");
        }
        return allocateKv(new int[layers], new int[] {blocks}, blockSize, kvDim);
    }

    /**
     * Key/value pages in KV groups: layer {@code l} of group {@code groupOfLayer[l]} holds
     * {@code blocksOfGroup[group] * blockSize} token slots of {@code kvDim} values, and its attention
     * reads the batch's block tables of that group (see {@link KvStorage}).
     */
    public final KvStorage allocateKv(int[] groupOfLayer, int[] blocksOfGroup, int blockSize, int kvDim) {
        return allocateKv(groupOfLayer, blocksOfGroup, blockSize, kvDim, KvCacheType.F16);
    }

    /**
     * {@link #allocateKv(int[], int[], int, int)} stored as {@code type}, which must be one of
     * {@link #kvCacheTypes()}.
     */
    public final KvStorage allocateKv(
            int[] groupOfLayer, int[] blocksOfGroup, int blockSize, int kvDim, KvCacheType type) {
        checkOpen();
        checkKvCacheType(type);
        if (groupOfLayer.length < 1 || blocksOfGroup.length < 1 || blockSize < 1 || kvDim < 1) {
            throw new IllegalArgumentException("KV storage needs positive sizes: " + groupOfLayer.length
                    + " layers, " + blocksOfGroup.length + " groups, blocks of " + blockSize + ", " + kvDim
                    + " values per slot");
        }
        for (int b : blocksOfGroup) {
            if (b < 1) {
                throw new IllegalArgumentException(
                        "KV storage needs positive sizes: " + Arrays.toString(blocksOfGroup) + " blocks per group");
            }
        }
        for (int g : groupOfLayer) {
            if (g < 0 || g >= blocksOfGroup.length) {
                throw new IllegalArgumentException("a layer of KV group " + g + " of " + blocksOfGroup.length);
            }
        }
        if (type == KvCacheType.Q8_0 && kvDim % KvCacheType.Q8_0_BLOCK != 0) {
            throw new IllegalArgumentException("a q8_0 KV cache needs whole blocks of " + KvCacheType.Q8_0_BLOCK
                    + " values: " + kvDim + " per slot");
        }
        return doAllocateKv(groupOfLayer.clone(), blocksOfGroup.clone(), blockSize, kvDim, type);
    }

    /** The KV cache types this backend stores ({@link KvCacheType#F16} everywhere). */
    public Set<KvCacheType> kvCacheTypes() {
        return EnumSet.of(KvCacheType.F16);
    }

    /** Refuses a KV cache type this backend does not store, naming those it does. */
    public final void checkKvCacheType(KvCacheType type) {
        if (!kvCacheTypes().contains(type)) {
            throw new UnsupportedOperationException("the " + name() + " backend has no " + type.id()
                    + " KV cache (llmserve.engine.kv-cache-type): it supports "
                    + KvCacheType.names(kvCacheTypes().toArray(KvCacheType[]::new)));
        }
    }

    /**
     * Refuses a KV cache of {@code type} (one of {@link #kvCacheTypes()}) for attention of
     * {@code heads} query heads over {@code kvHeads} kv heads of {@code headDim} values where this
     * backend has no kernel reading that type for that shape; every shape passes by default.
     */
    public void checkKvCacheShape(KvCacheType type, int heads, int kvHeads, int headDim) {}

    /** Copies {@code n} rows of {@code src} from {@code srcOffset} (row-major) into rows {@code [0, n)} of {@code x}. */
    public final void write(float[] src, int srcOffset, int n, Activations x) {
        own(x);
        checkRows(n, x, "write");
        if (srcOffset < 0 || srcOffset + (long) n * x.cols() > src.length) {
            throw new IndexOutOfBoundsException(
                    "writing " + n + " rows of " + x.cols() + " from " + src.length + " floats at " + srcOffset);
        }
        doWrite(src, srcOffset, n, x);
    }

    // ---------------------------------------------------------------- steps

    /**
     * Opens a step over {@code batch}, whose positions and block tables {@link #rope} and
     * {@link #attention} read; {@code null} for a pass that uses neither (an encoder).
     *
     * @throws IllegalStateException when a step is open already
     */
    public final Step beginStep(Batch batch) {
        checkOpen();
        if (step != null) {
            throw new IllegalStateException(name + ": a step is open already (" + step + ")");
        }
        Step s = new Step(this, batch);
        doBeginStep(batch);
        step = s;
        return s;
    }

    /** {@link #beginStep(Batch)} for a pass without a batch: nothing it runs reads positions or the cache. */
    public final Step beginStep() {
        return beginStep(null);
    }

    final void endStep(Step s) {
        if (step != s) {
            throw new IllegalStateException(name + ": " + s + " is not the open step");
        }
        try {
            doEndStep();
        } finally {
            step = null;
        }
    }

    // ---------------------------------------------------------------- operations

    /** {@code out[t] = table[ids[t]]} for {@code t < n}. */
    public final void embed(Weight table, int[] ids, int n, Activations out) {
        Step s = step();
        own(table, Weight.Kind.TABLE, "embed");
        own(out);
        checkCols(out, table.cols(), "embed");
        checkRows(n, out, "embed");
        if (n > ids.length) {
            throw new IllegalArgumentException("embed: " + n + " rows but " + ids.length + " ids");
        }
        for (int t = 0; t < n; t++) {
            if (ids[t] < 0 || ids[t] >= table.rows()) {
                throw new IllegalArgumentException("token id " + ids[t] + " is outside the vocabulary of "
                        + table.rows() + " (" + table.name() + ")");
            }
        }
        doEmbed(s, table, ids, n, out);
    }

    /** {@code out[t] = x[t] / rms(x[t]) * weight}, the RMS taken with {@code eps} added. */
    public final void rmsNorm(Activations x, Weight weight, float eps, int n, Activations out) {
        Step s = step();
        ownVector(weight, x.cols(), "rmsNorm");
        sameShape(x, out, n, "rmsNorm");
        doRmsNorm(s, x, weight, eps, n, out);
    }

    /** {@code out[t] = (x[t] - mean) / sqrt(var + eps) * weight + bias}. */
    public final void layerNorm(Activations x, Weight weight, Weight bias, float eps, int n, Activations out) {
        Step s = step();
        ownVector(weight, x.cols(), "layerNorm weight");
        ownVector(bias, x.cols(), "layerNorm bias");
        sameShape(x, out, n, "layerNorm");
        doLayerNorm(s, x, weight, bias, eps, n, out);
    }

    /** {@code out[t] = W x[t]} for a weight of {@code out.cols()} rows and {@code x.cols()} columns. */
    public final void matmul(Weight w, Activations x, int n, Activations out) {
        Step s = step();
        own(w, Weight.Kind.MATRIX, "matmul");
        own(x);
        own(out);
        checkCols(x, w.cols(), "matmul input of " + w.name());
        checkCols(out, w.rows(), "matmul output of " + w.name());
        checkRows(n, x, "matmul");
        checkRows(n, out, "matmul");
        doMatmul(s, w, x, n, out);
    }

    /** {@code x[t] += bias}. */
    public final void addBias(Activations x, Weight bias, int n) {
        Step s = step();
        own(x);
        ownVector(bias, x.cols(), "addBias");
        checkRows(n, x, "addBias");
        doAddBias(s, x, bias, n);
    }

    /** {@code x[t] += y[t]}. */
    public final void add(Activations x, Activations y, int n) {
        Step s = step();
        sameShape(y, x, n, "add");
        doAdd(s, x, y, n);
    }

    /**
     * Sums rows {@code [0, n)} of {@code x} over the {@linkplain #shards() shards} of a
     * tensor-parallel model, in place: afterwards every shard's {@code x} holds the sum, the same
     * bits on each. Every shard makes this call with its part, in rank order and one right after
     * another (a backend that computes at once sums at the last rank's call; GPUs run the calls as
     * one collective). A backend that is not a shard leaves {@code x} as it is.
     */
    public final void allReduceSum(Activations x, int n) {
        Step s = step();
        own(x);
        checkRows(n, x, "allReduceSum");
        doAllReduceSum(s, x, n);
    }

    /** {@code x[t][i] = f(x[t][i])} in place, for the function {@code f}. */
    public final void unary(Unary f, Activations x, int n) {
        Step s = step();
        own(x);
        checkRows(n, x, f.name().toLowerCase(java.util.Locale.ROOT));
        doUnary(s, f, x, n);
    }

    /** {@link #unary} with {@link Unary#GELU}. */
    public final void gelu(Activations x, int n) {
        unary(Unary.GELU, x, n);
    }

    /** {@code out[t][i] = silu(gateUp[t][i]) * gateUp[t][i + out.cols()]}: the fused gate|up halves. */
    public final void swiGlu(Activations gateUp, int n, Activations out) {
        glu(Glu.SILU, gateUp, n, out);
    }

    /**
     * {@code out[t][i] = act(gateUp[t][i]) * gateUp[t][i + out.cols()]}: a gated feed-forward's fused
     * gate|up halves, with {@link Glu#SILU} (SwiGLU) or {@link Glu#GELU} (GeGLU) on the gate; with
     * {@link Glu#SWIGLU_OAI} gpt-oss's clamped form of both halves instead.
     */
    public final void glu(Glu act, Activations gateUp, int n, Activations out) {
        Step s = step();
        own(gateUp);
        own(out);
        String what =
                switch (act) {
                    case SILU -> "swiGlu";
                    case GELU -> "geGlu";
                    case SWIGLU_OAI -> "swiGluOai";
                };
        checkCols(gateUp, 2L * out.cols(), what + " input");
        checkRows(n, gateUp, what);
        checkRows(n, out, what);
        switch (act) {
            case SILU -> doSwiGlu(s, gateUp, n, out);
            case GELU -> doGeGlu(s, gateUp, n, out);
            case SWIGLU_OAI -> {
                require(Capability.SWIGLU_OAI, "gpt-oss's SwiGLU");
                doSwiGluOai(s, gateUp, n, out);
            }
        }
    }

    /** {@code x[t][i] *= factor}. */
    public final void scale(Activations x, float factor, int n) {
        Step s = step();
        own(x);
        checkRows(n, x, "scale");
        doScale(s, x, factor, n);
    }

    /**
     * RMS-normalizes each of {@code heads} heads of {@code headDim} values starting at column
     * {@code col} of the first {@code n} rows, in place, then multiplies by {@code weight} (one value
     * per head dimension, shared by the heads): the per-head query and key norms of qwen3 and gemma3.
     */
    public final void headRmsNorm(Activations x, int col, int heads, int headDim, Weight weight, float eps, int n) {
        Step s = step();
        own(x);
        ownVector(weight, headDim, "headRmsNorm");
        checkRows(n, x, "headRmsNorm");
        if (col < 0 || heads < 1 || col + (long) heads * headDim > x.cols()) {
            throw new IllegalArgumentException("headRmsNorm of " + heads + " heads of " + headDim + " at column " + col
                    + " does not fit rows of " + x.cols());
        }
        doHeadRmsNorm(s, x, col, heads, headDim, weight, eps, n);
    }

    /**
     * Routes rows {@code [first, first + tokens)} of a mixture's router logits ({@code logits}, one
     * column per expert) as llama.cpp's softmax gating does: the softmax of each row, its
     * {@code routing.cols() / 2} most likely experts (the lower id first among equals), and their
     * probabilities divided by their sum (at least 6.1e-5) and multiplied by {@code scale}. Row
     * {@code t} of {@code routing} gets the chosen ids (as floats), then their weights. The routing
     * stays where the backend computes, so no host round trip is needed per layer.
     */
    public final void routeExperts(Activations logits, int first, int tokens, float scale, Activations routing) {
        routeExperts(logits, first, tokens, scale, Gating.SOFTMAX, routing);
    }

    /**
     * {@link #routeExperts(Activations, int, int, float, Activations)} with the gating of
     * {@code gating}: for {@link Gating#SOFTMAX_OF_TOP_K} the {@code routing.cols() / 2} largest
     * logits (the lower id first among equals) are chosen and their weights are the softmax of those
     * logits, times {@code scale}, not normalized further (llama.cpp's {@code SOFTMAX_WEIGHT}).
     */
    public final void routeExperts(
            Activations logits, int first, int tokens, float scale, Gating gating, Activations routing) {
        Step s = step();
        if (gating == Gating.SOFTMAX_OF_TOP_K) {
            require(Capability.SOFTMAX_OF_TOP_K, "a softmax over the chosen experts' logits");
        }
        own(logits);
        own(routing);
        int used = usedExperts(routing, "routeExperts");
        if (logits.cols() > MAX_ROUTED_EXPERTS) {
            throw new IllegalArgumentException(
                    "routeExperts: " + logits.cols() + " experts, at most " + MAX_ROUTED_EXPERTS);
        }
        if (used > logits.cols()) {
            throw new IllegalArgumentException(
                    "routeExperts: " + used + " experts per token of " + logits.cols() + " router logits");
        }
        checkRange(first, tokens, logits, "routeExperts");
        checkRows(tokens, routing, "routeExperts");
        if (tokens > 0) {
            doRouteExperts(s, logits, first, tokens, scale, gating, routing);
        }
    }

    /**
     * A bias per expert on the (token, expert) pairs of {@code tokens} rows of {@code routing}
     * (llama.cpp's {@code ggml_add_id}): columns {@code [col, col + width)} of row
     * {@code p = t * used + j} of {@code y} get row {@code routing[t][j]} of {@code bias}, which
     * holds {@code width} values per expert, expert after expert. A pair whose id is not an expert
     * of {@code bias} is left alone.
     */
    public final void addExpertBias(Activations y, int col, int width, Weight bias, Activations routing, int tokens) {
        Step s = step();
        own(y);
        own(routing);
        own(bias, Weight.Kind.VECTOR, "addExpertBias");
        require(Capability.EXPERT_BIASES, "expert biases");
        int used = usedExperts(routing, "addExpertBias");
        if (width < 1 || col < 0 || col + (long) width > y.cols() || bias.cols() % width != 0) {
            throw new IllegalArgumentException("addExpertBias: " + bias.name() + " of " + bias.cols()
                    + " values in rows of " + width + " at column " + col + " of rows of " + y.cols());
        }
        checkRows(tokens, routing, "addExpertBias");
        checkRows(tokens * used, y, "addExpertBias");
        if (tokens > 0) {
            doAddExpertBias(s, y, col, width, bias, routing, tokens);
        }
    }

    /**
     * Products with a mixture's experts over the (token, expert) pairs of {@code tokens} rows of
     * {@code routing} (from {@link #routeExperts}): pair {@code p = t * used + j} multiplies expert
     * {@code routing[t][j]}'s matrix of {@code w} (from {@link #uploadExperts}) by row
     * {@code xFirst + t} of {@code x} (row {@code p} when {@code xPerPair}) into row {@code p} of
     * {@code out}. A backend reads each chosen expert once for all the pairs that chose it; a pair
     * whose id is not an expert of {@code w} is skipped.
     */
    public final void expertMatmul(
            Weight w, Activations routing, int tokens, int xFirst, boolean xPerPair, Activations x, Activations out) {
        Step s = step();
        own(w, Weight.Kind.EXPERTS, "expertMatmul");
        own(routing);
        own(x);
        own(out);
        int used = usedExperts(routing, "expertMatmul");
        checkCols(x, w.cols(), "expertMatmul input of " + w.name());
        checkCols(out, w.rows(), "expertMatmul output of " + w.name());
        checkRows(tokens, routing, "expertMatmul");
        checkRows(tokens * used, out, "expertMatmul");
        if (xPerPair) {
            checkRows(tokens * used, x, "expertMatmul");
        } else {
            checkRange(xFirst, tokens, x, "expertMatmul");
        }
        if (tokens > 0) {
            doExpertMatmul(s, w, routing, tokens, xPerPair ? 0 : xFirst, xPerPair, x, out);
        }
    }

    /**
     * A mixture's output rows: {@code out[first + t] = sum over j < used of weight(t, j) *
     * y[t * used + j]} for {@code t < tokens}, the weights from {@code routing}, the slots added in
     * order, as llama.cpp adds them.
     */
    public final void combineExperts(Activations y, Activations routing, int first, int tokens, Activations out) {
        Step s = step();
        own(y);
        own(routing);
        own(out);
        int used = usedExperts(routing, "combineExperts");
        checkCols(out, y.cols(), "combineExperts");
        checkRows(tokens, routing, "combineExperts");
        checkRows(used * tokens, y, "combineExperts");
        checkRange(first, tokens, out, "combineExperts");
        if (tokens > 0) {
            doCombineExperts(s, y, routing, first, tokens, out);
        }
    }

    /** Most experts a mixture may have (the device kernels keep a value per expert in shared memory). */
    public static final int MAX_ROUTED_EXPERTS = 512;

    private static int usedExperts(Activations routing, String what) {
        if (routing.cols() < 2 || routing.cols() % 2 != 0) {
            throw new IllegalArgumentException(
                    what + ": routing rows hold ids then weights, an even count, not " + routing.cols());
        }
        return routing.cols() / 2;
    }

    private static void checkRange(int first, int n, Activations a, String what) {
        if (first < 0 || n < 0 || (long) first + n > a.rows()) {
            throw new IndexOutOfBoundsException(what + ": rows " + first + ".." + (first + n) + " of " + a.rows());
        }
    }

    /**
     * Rotates {@code heads} heads of {@code headDim} starting at column {@code col} of each of the
     * first {@code n} rows by the row's position in the step's batch.
     */
    public final void rope(Activations x, int col, int heads, int headDim, int n, Rope rope) {
        Step s = step();
        Batch batch = batchOf(s, n, "rope");
        own(x);
        checkRows(n, x, "rope");
        if (col < 0 || heads < 1 || col + (long) heads * headDim > x.cols() || rope.dims() > headDim) {
            throw new IllegalArgumentException("rope of " + heads + " heads of " + headDim + " (rotating " + rope.dims()
                    + ") at column " + col + " does not fit rows of " + x.cols());
        }
        doRope(s, x, col, heads, headDim, n, rope);
    }

    /**
     * Causal attention over the paged cache for the first {@code n} rows of the step's batch. Writes
     * each row's key and value (columns {@code shape.keyCol()} and {@code shape.valueCol()} of
     * {@code qkv}) into the cache slot of its position, then attends each row's query heads to its
     * sequence's positions up to its own. Rows are processed in batch order, so a chunk of a prompt
     * sees the chunks before it.
     */
    public final void attention(
            Activations qkv, KvStorage kv, int layer, int n, AttentionShape shape, Activations out) {
        Step s = step();
        Batch batch = batchOf(s, n, "attention");
        own(qkv);
        own(out);
        own(kv);
        checkCols(out, shape.queryDim(), "attention output");
        checkRows(n, qkv, "attention");
        checkRows(n, out, "attention");
        if (qkv.cols() < shape.valueCol() + shape.kvDim()) {
            throw new IllegalArgumentException("q|k|v rows of " + qkv.cols() + " do not hold " + shape);
        }
        if (shape.sinks() != null) {
            require(Capability.ATTENTION_SINKS, "attention sinks");
        }
        if (kv.kvDim() != shape.kvDim()) {
            throw new IllegalArgumentException(
                    "KV storage has " + kv.kvDim() + " values per slot, the layer needs " + shape.kvDim());
        }
        if (layer < 0 || layer >= kv.layers()) {
            throw new IllegalArgumentException("layer " + layer + " outside KV storage of " + kv.layers());
        }
        if (kv.groups() > batch.groups()) {
            throw new IllegalArgumentException(
                    "KV storage of " + kv.groups() + " groups, a batch with block tables of " + batch.groups());
        }
        if (s.firstUseOf(kv)) {
            checkSlots(batch, kv);
        }
        doAttention(s, qkv, kv, layer, n, shape, out);
    }

    /**
     * Bidirectional attention for encoders, with no cache: sequence {@code s < sequences} holds rows
     * {@code [starts[s], starts[s + 1])}, and each of those rows' query heads attends to the keys and
     * values (columns {@code shape.keyCol()} and {@code shape.valueCol()} of {@code qkv}) of every row
     * of its own sequence, before and after it. Scores, softmax and the weighted sum stay float32,
     * as in llama.cpp's BERT graph, which multiplies K by Q and V by the softmax as F32 matrices.
     */
    public final void encoderAttention(
            Activations qkv, int[] starts, int sequences, AttentionShape shape, Activations out) {
        Step s = step();
        own(qkv);
        own(out);
        checkCols(out, shape.queryDim(), "encoder attention output");
        checkCols(qkv, shape.queryDim() + 2L * shape.kvDim(), "encoder attention q|k|v");
        if (shape.causal() || shape.slidingWindow() > 0 || shape.softcap() > 0 || shape.sinks() != null) {
            throw new IllegalArgumentException(
                    "encoder attention is bidirectional over whole sequences, its scores uncapped and without sinks: "
                            + shape);
        }
        Spans.check(starts, sequences, qkv.rows(), out.rows());
        doEncoderAttention(s, qkv, starts, sequences, shape, out);
    }

    /**
     * {@code out[s]} = the pooling of rows {@code [starts[s], starts[s + 1])} of {@code x}, for
     * {@code s < sequences}: their mean, their first row or their last.
     */
    public final void pool(Activations x, int[] starts, int sequences, Pooling pooling, Activations out) {
        Step s = step();
        own(x);
        own(out);
        checkCols(out, x.cols(), "pool");
        Spans.check(starts, sequences, x.rows());
        if (sequences > out.rows()) {
            throw new IllegalArgumentException(
                    sequences + " sequences do not fit pooled activations of " + out.rows() + " rows");
        }
        doPool(s, x, starts, sequences, pooling, out);
    }

    /** {@code out[i] = x[rows[i]]} for {@code i < rows.length}. */
    public final void gatherRows(Activations x, int[] rows, Activations out) {
        Step s = step();
        own(x);
        own(out);
        checkCols(out, x.cols(), "gatherRows");
        checkRows(rows.length, out, "gatherRows");
        for (int r : rows) {
            if (r < 0 || r >= x.rows()) {
                throw new IndexOutOfBoundsException("gatherRows: row " + r + " of " + x.rows());
            }
        }
        if (rows.length > 0) {
            doGatherRows(s, x, rows.clone(), out);
        }
    }

    // ---------------------------------------------------------------- results to the host

    /**
     * Copies the first {@code n} rows to {@code dst[dstOffset..]} (row-major, {@code x.cols()} per
     * row). Inside a step, what was issued before runs first.
     */
    public final void read(Activations x, int n, float[] dst, int dstOffset) {
        checkOpen();
        own(x);
        checkRows(n, x, "read");
        if (dstOffset < 0 || dstOffset + (long) n * x.cols() > dst.length) {
            throw new IndexOutOfBoundsException(
                    "reading " + n + " rows of " + x.cols() + " into " + dst.length + " floats at " + dstOffset);
        }
        doRead(x, n, dst, dstOffset);
    }

    /**
     * The {@code k} largest values of each of the first {@code n} rows of {@code x} (logits), best
     * first, ties to the lower column: {@code ids[at + t * k + j]} is row t's j-th best column and
     * {@code values[at + t * k + j]} its value. A GPU chooses them on the device, so only
     * {@code n * k} pairs cross to the host instead of whole rows. A sync point, like {@link #read}.
     *
     * @throws IllegalArgumentException unless {@code 1 <= k <= min(MAX_TOP_K, x.cols())}
     */
    public final void topK(Activations x, int n, int k, int[] ids, float[] values, int at) {
        topK(x, n, k, ids, values, at, null);
    }

    /**
     * {@link #topK(Activations, int, int, int[], float[], int)} among allowed columns only:
     * {@code allowed} holds {@link #maskWords(int) maskWords(x.cols())} 32-bit words per row, bit c
     * of row t at {@code allowed[t * words + c / 32] >>> c % 32 & 1} (all ones for a row without a
     * mask), or is null for no mask. Disallowed columns are never chosen; a row with fewer allowed
     * columns than k ends in ids of {@code Integer.MAX_VALUE} with -infinity.
     */
    public final void topK(Activations x, int n, int k, int[] ids, float[] values, int at, int[] allowed) {
        Step s = step();
        checkTopK(x, n, k, ids, values, at, allowed);
        doTopK(s, x, n, k, ids, values, at, allowed);
    }

    private void checkTopK(Activations x, int n, int k, int[] ids, float[] values, int at, int[] allowed) {
        own(x);
        checkRows(n, x, "topK");
        if (k < 1 || k > Math.min(MAX_TOP_K, x.cols())) {
            throw new IllegalArgumentException("k must be in [1, " + Math.min(MAX_TOP_K, x.cols()) + "]: " + k);
        }
        if (at < 0 || ids.length - (long) at < (long) n * k || values.length - (long) at < (long) n * k) {
            throw new IndexOutOfBoundsException(
                    "top-" + k + " of " + n + " rows needs " + n * k + " entries from " + at);
        }
        if (allowed != null && allowed.length < (long) n * maskWords(x.cols())) {
            throw new IllegalArgumentException("masks of " + n + " rows need " + n * maskWords(x.cols()) + " words");
        }
    }

    /**
     * {@link #topK(Activations, int, int, int[], float[], int, int[])} that may return before the
     * choices are made: they are in {@code ids} and {@code values} once the returned
     * {@link Pending} has been awaited, and a later step's {@link #embedChoices} may take them
     * before that. Touch neither array until then. Backends that run synchronously choose at once
     * ({@link #choosesAhead()} says which).
     */
    public final Pending topKLater(Activations x, int n, int k, int[] ids, float[] values, int at, int[] allowed) {
        Step s = step();
        checkTopK(x, n, k, ids, values, at, allowed);
        return doTopKLater(s, x, n, k, ids, values, at, allowed);
    }

    /**
     * Whether {@link #topKLater} returns before its choices are made and {@link #embedChoices}
     * reads them where they were made, so a decode step can be issued while the one before it runs.
     */
    public boolean choosesAhead() {
        return false;
    }

    /**
     * {@link #embed} of rows some of which take the best token of a row of the last
     * {@link #topKLater} ({@code choices[t]}: that row, or -1 for row t's own {@code ids[t]}).
     * Only where {@link #choosesAhead()}.
     */
    public final void embedChoices(Weight table, int[] ids, int[] choices, int n, Activations out) {
        Step s = step();
        if (!choosesAhead()) {
            throw new UnsupportedOperationException(name + " makes its choices at once: embed them");
        }
        own(table, Weight.Kind.TABLE, "embed");
        own(out);
        checkCols(out, table.cols(), "embed");
        checkRows(n, out, "embed");
        if (n > ids.length || n > choices.length) {
            throw new IllegalArgumentException(
                    "embed: " + n + " rows but " + ids.length + " ids and " + choices.length + " choices");
        }
        for (int t = 0; t < n; t++) {
            if (choices[t] < 0 && (ids[t] < 0 || ids[t] >= table.rows())) {
                throw new IllegalArgumentException("token id " + ids[t] + " is outside the vocabulary of "
                        + table.rows() + " (" + table.name() + ")");
            }
        }
        doEmbedChoices(s, table, ids, choices, n, out);
    }

    /** 32-bit mask words per row of {@code cols} columns. */
    public static int maskWords(int cols) {
        return (cols + 31) >>> 5;
    }

    /**
     * Rows {@code [from, from + n)} of per-row long masks ({@code null} entries: no mask) as the
     * 32-bit words {@link #topK(Activations, int, int, int[], float[], int, int[])} takes; null
     * when none of those rows has a mask.
     */
    public static int[] packMasks(long[][] masks, int from, int n, int cols) {
        if (masks == null) {
            return null;
        }
        boolean any = false;
        for (int r = from; r < from + n && !any; r++) {
            any = masks[r] != null;
        }
        if (!any) {
            return null;
        }
        int words = maskWords(cols);
        int[] packed = new int[n * words];
        for (int r = 0; r < n; r++) {
            long[] m = masks[from + r];
            for (int w = 0; w < words; w++) {
                packed[r * words + w] = m == null ? -1 : (int) (m[w >>> 1] >>> ((w & 1) * 32));
            }
        }
        return packed;
    }

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        try {
            if (step != null) {
                step.close();
            }
        } finally {
            closed = true;
            doClose();
        }
    }

    // ---------------------------------------------------------------- what a backend implements

    protected abstract Weight doUploadMatrix(String name, List<GgufTensor> parts, int cols);

    protected abstract Weight doUploadTable(GgufTensor tensor);

    protected abstract Weight doUploadVector(String name, float[] values);

    protected abstract Activations doAllocate(int rows, int cols);

    /** Sizes checked; the arrays are the backend's to keep. */
    protected abstract KvStorage doAllocateKv(
            int[] groupOfLayer, int[] blocksOfGroup, int blockSize, int kvDim, KvCacheType type);

    protected abstract void doWrite(float[] src, int srcOffset, int n, Activations x);

    /** A step opens; {@code batch} may be null. */
    protected void doBeginStep(Batch batch) {}

    /** The open step ends: whatever was issued and has not run runs now. */
    protected void doEndStep() {}

    /** A handle is about to release its memory: work issued before that may still use it must run first. */
    protected void beforeRelease() {}

    protected abstract void doEmbed(Step step, Weight table, int[] ids, int n, Activations out);

    protected abstract void doRmsNorm(Step step, Activations x, Weight weight, float eps, int n, Activations out);

    protected abstract void doLayerNorm(
            Step step, Activations x, Weight weight, Weight bias, float eps, int n, Activations out);

    protected abstract void doMatmul(Step step, Weight w, Activations x, int n, Activations out);

    protected abstract void doAddBias(Step step, Activations x, Weight bias, int n);

    protected abstract void doAdd(Step step, Activations x, Activations y, int n);

    /** A shard's part of {@link #allReduceSum}; nothing for a backend that is no shard. */
    protected void doAllReduceSum(Step step, Activations x, int n) {}

    protected abstract void doUnary(Step step, Unary f, Activations x, int n);

    protected abstract void doSwiGlu(Step step, Activations gateUp, int n, Activations out);

    /** {@code out[t][i] = gelu(gateUp[t][i]) * gateUp[t][i + out.cols()]}, the GELU of {@link Unary#GELU}. */
    protected abstract void doGeGlu(Step step, Activations gateUp, int n, Activations out);

    protected abstract void doScale(Step step, Activations x, float factor, int n);

    protected abstract void doHeadRmsNorm(
            Step step, Activations x, int col, int heads, int headDim, Weight weight, float eps, int n);

    protected abstract Weight doUploadExperts(String name, List<GgufTensor> stacks, int experts, int rows, int cols);

    protected abstract void doRouteExperts(
            Step step, Activations logits, int first, int tokens, float scale, Gating gating, Activations routing);

    /** A backend with {@link Capability#EXPERT_BIASES} implements this. */
    protected void doAddExpertBias(
            Step step, Activations y, int col, int width, Weight bias, Activations routing, int tokens) {
        throw new UnsupportedOperationException(name + ": expert biases");
    }

    /** {@link Glu#SWIGLU_OAI}; a backend with {@link Capability#SWIGLU_OAI} implements this. */
    protected void doSwiGluOai(Step step, Activations gateUp, int n, Activations out) {
        throw new UnsupportedOperationException(name + ": gpt-oss's SwiGLU");
    }

    protected abstract void doExpertMatmul(
            Step step,
            Weight w,
            Activations routing,
            int tokens,
            int xFirst,
            boolean xPerPair,
            Activations x,
            Activations out);

    protected abstract void doCombineExperts(
            Step step, Activations y, Activations routing, int first, int tokens, Activations out);

    /** {@code step.batch()} is present: {@link #rope} checked it. */
    protected abstract void doRope(Step step, Activations x, int col, int heads, int headDim, int n, Rope rope);

    /** {@code step.batch()} is present and its block tables lie in {@code kv}: {@link #attention} checked them. */
    protected abstract void doAttention(
            Step step, Activations qkv, KvStorage kv, int layer, int n, AttentionShape shape, Activations out);

    protected abstract void doEncoderAttention(
            Step step, Activations qkv, int[] starts, int sequences, AttentionShape shape, Activations out);

    protected abstract void doPool(
            Step step, Activations x, int[] starts, int sequences, Pooling pooling, Activations out);

    protected abstract void doGatherRows(Step step, Activations x, int[] rows, Activations out);

    protected abstract void doRead(Activations x, int n, float[] dst, int dstOffset);

    protected abstract void doTopK(
            Step step, Activations x, int n, int k, int[] ids, float[] values, int at, int[] allowed);

    /** Chooses at once; a backend that {@link #choosesAhead()} returns before the device has. */
    protected Pending doTopKLater(
            Step step, Activations x, int n, int k, int[] ids, float[] values, int at, int[] allowed) {
        doTopK(step, x, n, k, ids, values, at, allowed);
        return Pending.DONE;
    }

    /** Only backends that {@link #choosesAhead()} are asked. */
    protected void doEmbedChoices(Step step, Weight table, int[] ids, int[] choices, int n, Activations out) {
        throw new UnsupportedOperationException(name + " makes its choices at once");
    }

    /** Frees what the backend holds; the open step, if any, has ended. */
    protected abstract void doClose();

    // ---------------------------------------------------------------- checks

    /** Handles call this when closed. */
    final void released(Runnable release) {
        try {
            if (!closed) {
                beforeRelease();
            }
        } finally {
            release.run();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(name + " is closed");
        }
    }

    private Step step() {
        checkOpen();
        if (step == null) {
            throw new IllegalStateException(name + ": operations run inside a step (beginStep), and none is open");
        }
        return step;
    }

    private Batch batchOf(Step s, int n, String what) {
        Batch batch = s.batch();
        if (batch == null) {
            throw new IllegalStateException(what + " reads the step's batch, and this step has none");
        }
        if (n > batch.size()) {
            throw new IllegalArgumentException(what + ": " + n + " rows of a batch of " + batch.size());
        }
        return batch;
    }

    private static void checkType(GgufTensor t) {
        if (!WEIGHT_TYPES.contains(t.type())) {
            throw new UnsupportedTensorTypeException(t.name(), t.type());
        }
    }

    private void own(Activations a) {
        if (a.owner() != this) {
            throw new IllegalArgumentException(a + " does not belong to " + name);
        }
        if (a.isClosed()) {
            throw new IllegalStateException(a + " is closed");
        }
    }

    private void own(KvStorage kv) {
        if (kv.owner() != this) {
            throw new IllegalArgumentException(kv + " does not belong to " + name);
        }
        if (kv.isClosed()) {
            throw new IllegalStateException(kv + " is closed");
        }
    }

    private void own(Weight w, Weight.Kind kind, String what) {
        if (w.owner() != this) {
            throw new IllegalArgumentException(w + " does not belong to " + name);
        }
        if (w.isClosed()) {
            throw new IllegalStateException(w + " is closed");
        }
        if (w.kind() != kind) {
            throw new IllegalArgumentException(what + " takes a " + kind.name().toLowerCase(java.util.Locale.ROOT)
                    + " weight, and " + w + " is not one");
        }
    }

    private void ownVector(Weight w, int length, String what) {
        own(w, Weight.Kind.VECTOR, what);
        if (w.cols() != length) {
            throw new IllegalArgumentException(
                    what + ": " + w.name() + " has " + w.cols() + " values, expected " + length);
        }
    }

    /** Both owned, of the same columns, each with at least {@code n} rows. */
    private void sameShape(Activations in, Activations out, int n, String what) {
        own(in);
        own(out);
        checkCols(out, in.cols(), what);
        checkRows(n, in, what);
        checkRows(n, out, what);
    }

    private static void checkCols(Activations a, long cols, String what) {
        if (a.cols() != cols) {
            throw new IllegalArgumentException(what + ": activations have " + a.cols() + " columns, expected " + cols);
        }
    }

    private static void checkRows(int n, Activations a, String what) {
        if (n < 0 || n > a.rows()) {
            throw new IllegalArgumentException(what + ": " + n + " rows of activations with " + a.rows());
        }
    }

    /** Every slot the batch's attention writes or reads must lie in the storage: kernels do not check. */
    private static void checkSlots(Batch batch, KvStorage kv) {
        if (batch.blockSize() != kv.blockSize()) {
            throw new IllegalArgumentException(
                    "batch blocks of " + batch.blockSize() + " but KV blocks of " + kv.blockSize());
        }
        int[] last = batch.lastPositions();
        for (int g = 0; g < kv.groups(); g++) {
            for (int s = 0; s < last.length; s++) {
                int[] table = batch.blockTable(g, s);
                for (int b = 0; last[s] >= 0 && b <= last[s] / batch.blockSize(); b++) {
                    if (table[b] < 0 || table[b] >= kv.blocks(g)) {
                        throw new IndexOutOfBoundsException("sequence " + s + " uses block " + table[b]
                                + " of a KV storage of " + kv.blocks(g) + (g > 0 ? " in group " + g : ""));
                    }
                }
            }
        }
    }

    @Override
    public String toString() {
        return name + " backend";
    }
}
