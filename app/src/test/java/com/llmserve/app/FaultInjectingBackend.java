package com.llmserve.app;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.Op;
import com.llmserve.engine.backend.Pooling;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufTensor;
import com.llmserve.gpu.GpuCallException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A backend that stands in for a GPU: it computes with the backend it wraps (a CPU backend, so
 * results are the CPU's to the bit) and, on command, fails every forward pass from its first
 * operation on, the way a failing device fails a step. Each failure is a new exception, as a real
 * device raises a new one per failed call.
 */
public final class FaultInjectingBackend implements Backend {

    private final Backend inner;
    private final String name;
    private final AtomicReference<Supplier<RuntimeException>> fault = new AtomicReference<>();
    private final AtomicLong work = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();

    public FaultInjectingBackend(Backend inner, String name) {
        this.inner = inner;
        this.name = name;
    }

    /** Fails every forward pass from now on with what {@code error} makes. */
    public void failWith(Supplier<RuntimeException> error) {
        fault.set(error);
    }

    /** Fails like a device whose kernel launch was refused: a plain driver error, the context intact. */
    public void failLikeABadLaunch() {
        failWith(() -> new GpuCallException(
                "cuda", "cuLaunchKernel", 1, "CUDA_ERROR_INVALID_VALUE", "invalid argument", false));
    }

    /** Fails like a device that lost its context (an illegal memory access): sticky, only a restart helps. */
    public void failLikeALostContext() {
        failWith(() -> new GpuCallException(
                "cuda",
                "cuStreamSynchronize",
                700,
                "CUDA_ERROR_ILLEGAL_ADDRESS",
                "an illegal memory access was encountered",
                false));
    }

    /** Computes again. */
    public void heal() {
        fault.set(null);
    }

    /** Embedding gathers computed: grows with every forward pass that ran here (by one or more). */
    public long work() {
        return work.get();
    }

    /** Forward passes failed on command. */
    public long failures() {
        return failures.get();
    }

    /** Every forward pass, decoder or encoder, starts by gathering token embeddings: the fault point. */
    @Override
    public void embed(Weight table, int[] tokens, int n, Activations out) {
        Supplier<RuntimeException> f = fault.get();
        if (f != null) {
            failures.incrementAndGet();
            throw f.get();
        }
        work.incrementAndGet();
        inner.embed(table, tokens, n, out);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean supports(Op op, GgmlType type) {
        return inner.supports(op, type);
    }

    @Override
    public Weight uploadMatrix(String name, List<GgufTensor> parts) {
        return inner.uploadMatrix(name, parts);
    }

    @Override
    public Weight uploadTable(GgufTensor tensor) {
        return inner.uploadTable(tensor);
    }

    @Override
    public Weight uploadVector(String name, List<GgufTensor> parts) {
        return inner.uploadVector(name, parts);
    }

    @Override
    public Activations allocate(int rows, int cols) {
        return inner.allocate(rows, cols);
    }

    @Override
    public KvStorage allocateKv(int layers, int blocks, int blockSize, int kvDim) {
        return inner.allocateKv(layers, blocks, blockSize, kvDim);
    }

    @Override
    public void rmsNorm(Activations x, Weight weight, float eps, int n, Activations out) {
        inner.rmsNorm(x, weight, eps, n, out);
    }

    @Override
    public void layerNorm(Activations x, Weight weight, Weight bias, float eps, int n, Activations out) {
        inner.layerNorm(x, weight, bias, eps, n, out);
    }

    @Override
    public void matmul(Weight w, Activations x, int n, Activations out) {
        inner.matmul(w, x, n, out);
    }

    @Override
    public void addBias(Activations x, Weight bias, int n) {
        inner.addBias(x, bias, n);
    }

    @Override
    public void add(Activations x, Activations y, int n) {
        inner.add(x, y, n);
    }

    @Override
    public void rope(Activations x, int col, int heads, int headDim, Batch batch, int n, Rope rope) {
        inner.rope(x, col, heads, headDim, batch, n, rope);
    }

    @Override
    public void attention(
            Activations qkv, KvStorage kv, int layer, Batch batch, int n, AttentionShape attn, Activations out) {
        inner.attention(qkv, kv, layer, batch, n, attn, out);
    }

    @Override
    public void encoderAttention(Activations qkv, int[] starts, int sequences, AttentionShape attn, Activations out) {
        inner.encoderAttention(qkv, starts, sequences, attn, out);
    }

    @Override
    public void gelu(Activations x, int n) {
        inner.gelu(x, n);
    }

    @Override
    public void pool(Activations x, int[] starts, int sequences, Pooling pooling, Activations out) {
        inner.pool(x, starts, sequences, pooling, out);
    }

    @Override
    public void swiGlu(Activations gateUp, int n, Activations out) {
        inner.swiGlu(gateUp, n, out);
    }

    @Override
    public void gatherRows(Activations x, int[] rows, Activations out) {
        inner.gatherRows(x, rows, out);
    }

    @Override
    public void read(Activations x, int n, float[] dst, int dstOffset) {
        inner.read(x, n, dst, dstOffset);
    }

    @Override
    public void topK(Activations x, int n, int k, int[] ids, float[] values, int at) {
        inner.topK(x, n, k, ids, values, at);
    }

    @Override
    public void close() {
        inner.close();
    }
}
