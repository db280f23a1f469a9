package com.llmserve.engine.backend.cpu;

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
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufTensor;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;

/**
 * The always-available backend: weights are zero-copy views of the mapped file, work is split
 * over a fixed pool sized to the cores given, inner loops use the Vector API.
 */
public final class CpuBackend implements Backend {

    /**
     * Rows per task of the row-wise operations (norms, residual adds, rope, activation functions,
     * KV writes): enough that a task outweighs handing it to another thread, few enough that a
     * prompt's rows spread over all.
     */
    static final int ROWS_PER_TASK = 4;

    private final Parallel parallel;
    private final boolean pack;
    /** Quantized activations of the product in progress; the engine loop runs one product at a time. */
    private final ActivationCache activations = new ActivationCache();

    private final CachedAttention cached;
    private final EncoderAttention encoder;

    /**
     * @param threads cores to use
     * @param pack    re-lay weights out for this machine's kernels where a type has such a layout
     *                (Q4_0 on AVX-512), releasing the mapped pages they replace; otherwise every
     *                weight stays a zero-copy view of the file
     */
    public CpuBackend(int threads, boolean pack) {
        this.parallel = new Parallel(threads);
        this.cached = new CachedAttention(parallel);
        this.encoder = new EncoderAttention(parallel);
        this.pack = pack;
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

    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public boolean supports(Op op, GgmlType type) {
        return CpuTensor.supports(type);
    }

    @Override
    public Weight uploadMatrix(String name, List<GgufTensor> parts) {
        List<CpuTensor> tensors = new ArrayList<>(parts.size());
        Arena arena = pack ? Arena.ofShared() : null;
        boolean packed = false;
        for (GgufTensor t : parts) {
            CpuTensor c = CpuTensor.of(t);
            if (arena != null && c.pack(arena)) {
                MappedPages.release(t.data());
                packed = true;
            }
            tensors.add(c);
        }
        if (arena != null && !packed) {
            arena.close();
            arena = null;
        }
        return CpuWeight.matrix(name, tensors, arena);
    }

    @Override
    public Weight uploadTable(GgufTensor tensor) {
        return CpuWeight.matrix(tensor.name(), List.of(CpuTensor.of(tensor)), null);
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
        return CpuWeight.vector(name, values);
    }

    @Override
    public Activations allocate(int rows, int cols) {
        return new CpuActivations(rows, cols);
    }

    @Override
    public KvStorage allocateKv(int layers, int blocks, int blockSize, int kvDim) {
        return new CpuKvStorage(layers, blocks, blockSize, kvDim);
    }

    @Override
    public void embed(Weight table, int[] tokens, int n, Activations out) {
        CpuWeight w = (CpuWeight) table;
        CpuActivations o = (CpuActivations) out;
        checkCols(o, w.cols(), "embed");
        for (int t = 0; t < n; t++) {
            int token = tokens[t];
            if (token < 0 || token >= w.rows()) {
                throw new IllegalArgumentException("token id " + token + " is outside the vocabulary of " + w.rows());
            }
            w.dequantizeRow(token, o.data, t * o.cols());
        }
    }

    @Override
    public void rmsNorm(Activations x, Weight weight, float eps, int n, Activations out) {
        CpuActivations in = (CpuActivations) x;
        CpuActivations o = (CpuActivations) out;
        float[] w = ((CpuWeight) weight).vector();
        int d = in.cols();
        checkCols(o, d, "rmsNorm");
        parallel.forEach(n, ROWS_PER_TASK, (from, to) -> {
            for (int t = from; t < to; t++) {
                double mean = FloatMath.sumOfSquares(in.data, t * d, d) / d;
                float inv = (float) (1.0 / Math.sqrt(mean + eps));
                FloatMath.scaleByWeight(in.data, t * d, inv, w, o.data, t * d, d);
            }
        });
    }

    @Override
    public void layerNorm(Activations x, Weight weight, Weight bias, float eps, int n, Activations out) {
        CpuActivations in = (CpuActivations) x;
        CpuActivations o = (CpuActivations) out;
        float[] w = ((CpuWeight) weight).vector();
        float[] b = ((CpuWeight) bias).vector();
        int d = in.cols();
        checkCols(o, d, "layerNorm");
        for (int t = 0; t < n; t++) {
            int base = t * d;
            // rounded as ggml's norm: sums in double of float terms, variance and scale in float
            float mean = (float) (FloatMath.sum(in.data, base, d) / d);
            double sum2 = 0;
            for (int i = 0; i < d; i++) {
                float c = in.data[base + i] - mean;
                sum2 += c * c;
            }
            float variance = (float) (sum2 / d);
            float inv = 1f / (float) Math.sqrt(variance + eps);
            for (int i = 0; i < d; i++) {
                o.data[base + i] = (in.data[base + i] - mean) * inv * w[i] + b[i];
            }
        }
    }

    @Override
    public void matmul(Weight weight, Activations x, int n, Activations out) {
        CpuWeight w = (CpuWeight) weight;
        CpuActivations in = (CpuActivations) x;
        CpuActivations o = (CpuActivations) out;
        checkCols(in, w.cols(), "matmul input of " + w.name());
        checkCols(o, (int) w.rows(), "matmul output of " + w.name());
        List<CpuTensor> parts = w.parts();
        PreparedInput[] prepared = new PreparedInput[parts.size()];
        activations.reset();
        for (int p = 0; p < parts.size(); p++) {
            prepared[p] = activations.prepare(parts.get(p), in.data, n, parallel);
        }
        // tasks are tiles of one part each, so every tile starts at a multiple of TileGemm.ROWS
        // within its tensor, where packed layouts have their groups
        int[] firstTile = new int[parts.size() + 1];
        for (int p = 0; p < parts.size(); p++) {
            firstTile[p + 1] = firstTile[p] + (int) ((parts.get(p).rows() + TileGemm.ROWS - 1) / TileGemm.ROWS);
        }
        parallel.forEach(firstTile[parts.size()], 1, (fromTile, toTile) -> {
            for (int p = 0; p < parts.size(); p++) {
                int lo = Math.max(fromTile, firstTile[p]);
                int hi = Math.min(toTile, firstTile[p + 1]);
                if (lo < hi) {
                    CpuTensor part = parts.get(p);
                    long rowFrom = (long) (lo - firstTile[p]) * TileGemm.ROWS;
                    long rowTo = Math.min(part.rows(), (long) (hi - firstTile[p]) * TileGemm.ROWS);
                    part.matmul(prepared[p], n, o.data, (int) w.firstRow(p), o.cols(), rowFrom, rowTo);
                }
            }
        });
    }

    @Override
    public void addBias(Activations x, Weight bias, int n) {
        CpuActivations a = (CpuActivations) x;
        float[] b = ((CpuWeight) bias).vector();
        checkCols(a, b.length, "addBias");
        for (int t = 0; t < n; t++) {
            FloatMath.add(a.data, t * a.cols(), b, 0, b.length);
        }
    }

    @Override
    public void add(Activations x, Activations y, int n) {
        CpuActivations a = (CpuActivations) x;
        CpuActivations b = (CpuActivations) y;
        checkCols(b, a.cols(), "add");
        int d = a.cols();
        parallel.forEach(
                n, ROWS_PER_TASK, (from, to) -> FloatMath.add(a.data, from * d, b.data, from * d, (to - from) * d));
    }

    @Override
    public void rope(Activations x, int col, int heads, int headDim, Batch batch, int n, Rope rope) {
        CpuActivations a = (CpuActivations) x;
        int half = rope.dims() / 2;
        float[] theta = new float[half];
        for (int i = 0; i < half; i++) {
            theta[i] = rope.theta(i);
        }
        parallel.forEach(n, ROWS_PER_TASK, (from, to) -> {
            float[] cos = new float[half];
            float[] sin = new float[half];
            for (int t = from; t < to; t++) {
                int pos = batch.position(t);
                for (int i = 0; i < half; i++) {
                    double angle = (double) pos * theta[i];
                    cos[i] = (float) Math.cos(angle);
                    sin[i] = (float) Math.sin(angle);
                }
                int rowBase = t * a.cols() + col;
                for (int h = 0; h < heads; h++) {
                    int base = rowBase + h * headDim;
                    for (int i = 0; i < half; i++) {
                        int i0 = rope.style() == Rope.Style.NORMAL ? base + 2 * i : base + i;
                        int i1 = rope.style() == Rope.Style.NORMAL ? i0 + 1 : i0 + half;
                        float v0 = a.data[i0];
                        float v1 = a.data[i1];
                        a.data[i0] = v0 * cos[i] - v1 * sin[i];
                        a.data[i1] = v0 * sin[i] + v1 * cos[i];
                    }
                }
            }
        });
    }

    @Override
    public void attention(
            Activations qkv, KvStorage kv, int layer, Batch batch, int n, AttentionShape shape, Activations out) {
        CpuActivations in = (CpuActivations) qkv;
        CpuActivations o = (CpuActivations) out;
        CpuKvStorage cache = (CpuKvStorage) kv;
        checkCols(o, shape.queryDim(), "attention output");
        if (cache.kvDim() != shape.kvDim()) {
            throw new IllegalArgumentException(
                    "KV storage has " + cache.kvDim() + " dims per slot, the layer needs " + shape.kvDim());
        }
        cached.run(in, cache, layer, batch, n, shape, o);
    }

    @Override
    public void encoderAttention(Activations qkv, int[] starts, int sequences, AttentionShape shape, Activations out) {
        CpuActivations in = (CpuActivations) qkv;
        CpuActivations o = (CpuActivations) out;
        checkCols(o, shape.queryDim(), "encoder attention output");
        checkCols(in, shape.queryDim() + 2 * shape.kvDim(), "encoder attention q|k|v");
        if (shape.causal() || shape.slidingWindow() > 0) {
            throw new IllegalArgumentException("encoder attention is bidirectional over whole sequences: " + shape);
        }
        Spans.check(starts, sequences, in.rows(), o.rows());
        encoder.run(in.data, in.cols(), starts, sequences, shape, o.data);
    }

    @Override
    public void gelu(Activations x, int n) {
        CpuActivations a = (CpuActivations) x;
        int d = a.cols();
        parallel.forEach(n, ROWS_PER_TASK, (from, to) -> FloatMath.gelu(a.data, from * d, (to - from) * d));
    }

    /** The mean as llama.cpp forms it: each row scaled by {@code 1/count} and summed in float32. */
    @Override
    public void pool(Activations x, int[] starts, int sequences, Pooling pooling, Activations out) {
        CpuActivations in = (CpuActivations) x;
        CpuActivations o = (CpuActivations) out;
        int d = in.cols();
        checkCols(o, d, "pool");
        Spans.check(starts, sequences, in.rows(), in.rows());
        if (sequences > o.rows()) {
            throw new IllegalArgumentException(
                    sequences + " sequences do not fit pooled activations of " + o.rows() + " rows");
        }
        for (int s = 0; s < sequences; s++) {
            int first = starts[s];
            int end = starts[s + 1];
            switch (pooling) {
                case CLS -> System.arraycopy(in.data, first * d, o.data, s * d, d);
                case LAST -> System.arraycopy(in.data, (end - 1) * d, o.data, s * d, d);
                case MEAN -> {
                    float inv = 1f / (end - first);
                    java.util.Arrays.fill(o.data, s * d, (s + 1) * d, 0f);
                    for (int t = first; t < end; t++) {
                        FloatMath.axpy(inv, in.data, t * d, o.data, s * d, d);
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
    public void swiGlu(Activations gateUp, int n, Activations out) {
        CpuActivations gu = (CpuActivations) gateUp;
        CpuActivations o = (CpuActivations) out;
        int f = o.cols();
        checkCols(gu, 2 * f, "swiGlu input");
        parallel.forEach(n, ROWS_PER_TASK, (from, to) -> {
            for (int t = from; t < to; t++) {
                FloatMath.swiGlu(gu.data, t * 2 * f, gu.data, t * 2 * f + f, o.data, t * f, f);
            }
        });
    }

    @Override
    public void gatherRows(Activations x, int[] rows, Activations out) {
        CpuActivations in = (CpuActivations) x;
        CpuActivations o = (CpuActivations) out;
        checkCols(o, in.cols(), "gatherRows");
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(in.data, rows[i] * in.cols(), o.data, i * o.cols(), in.cols());
        }
    }

    @Override
    public void read(Activations x, int n, float[] dst, int dstOffset) {
        CpuActivations a = (CpuActivations) x;
        System.arraycopy(a.data, 0, dst, dstOffset, n * a.cols());
    }

    @Override
    public void topK(Activations x, int n, int k, int[] ids, float[] values, int at) {
        CpuActivations a = (CpuActivations) x;
        int cols = a.cols();
        if (k < 1 || k > Math.min(MAX_TOP_K, cols)) {
            throw new IllegalArgumentException("k must be in [1, " + Math.min(MAX_TOP_K, cols) + "]: " + k);
        }
        if (n < 0 || n > a.rows() || at < 0 || ids.length - at < n * k || values.length - at < n * k) {
            throw new IndexOutOfBoundsException(
                    "top-" + k + " of " + n + " rows of " + a.rows() + " needs " + n * k + " entries from " + at);
        }
        for (int t = 0; t < n; t++) {
            selectTop(a.data, t * cols, cols, k, ids, values, at + t * k);
        }
    }

    /**
     * The k largest of {@code v[from .. from+cols)} by insertion into a sorted run: k is small, and
     * a later column enters only when strictly larger, so ties keep the lower column first.
     */
    private static void selectTop(float[] v, int from, int cols, int k, int[] ids, float[] values, int at) {
        int size = 0;
        for (int c = 0; c < cols; c++) {
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

    private static void checkCols(Activations a, int cols, String what) {
        if (a.cols() != cols) {
            throw new IllegalArgumentException(what + ": activations have " + a.cols() + " columns, expected " + cols);
        }
    }

    @Override
    public void close() {
        parallel.close();
    }

    @Override
    public String toString() {
        return "cpu backend (" + parallel.threads() + " threads, " + Simd.F.length() + " float lanes"
                + (Simd.ENABLED ? "" : ", vector paths off") + ")";
    }
}
