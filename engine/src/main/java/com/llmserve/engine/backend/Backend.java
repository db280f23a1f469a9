package com.llmserve.engine.backend;

import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufTensor;
import java.util.List;

/**
 * The compute interface every model runs on: a small set of batch-first operations over
 * backend-owned buffers. Activations are float32 matrices whose rows are the tokens of a
 * {@link Batch} (many sequences at different positions); an operation touches the first
 * {@code n} rows only. Weights are uploaded once; the CPU backend keeps them as zero-copy views of
 * the mapped file, a GPU backend copies them to device memory.
 *
 * <p>Implementations are used by one forward pass at a time (the engine loop); they may use
 * threads inside an operation.
 */
public interface Backend extends AutoCloseable {

    /** A short name for logs and metrics: {@code cpu}, {@code cuda:0}, {@code hip:1}. */
    String name();

    /** Whether {@code op} can run on weights of {@code type}. */
    boolean supports(Op op, GgmlType type);

    /**
     * Uploads a weight matrix made of the rows of {@code parts} in order (all of one row length),
     * so that fused projections (q|k|v, gate|up) run as one matrix multiplication.
     */
    Weight uploadMatrix(String name, List<GgufTensor> parts);

    default Weight uploadMatrix(GgufTensor tensor) {
        return uploadMatrix(tensor.name(), List.of(tensor));
    }

    /** Uploads an embedding table, read a row at a time by {@link #embed}. */
    Weight uploadTable(GgufTensor tensor);

    /** Uploads 1-D tensors (norm weights, biases) concatenated, as float32. */
    Weight uploadVector(String name, List<GgufTensor> parts);

    default Weight uploadVector(GgufTensor tensor) {
        return uploadVector(tensor.name(), List.of(tensor));
    }

    /** Scratch activations of {@code rows x cols} float32, zero-initialised. */
    Activations allocate(int rows, int cols);

    /** Key/value pages for every layer: {@code blocks * blockSize} token slots of {@code kvDim} floats each. */
    KvStorage allocateKv(int layers, int blocks, int blockSize, int kvDim);

    /** {@code out[t] = table[tokens[t]]} for {@code t < n}. */
    void embed(Weight table, int[] tokens, int n, Activations out);

    /** {@code out[t] = x[t] / rms(x[t]) * weight}, the RMS taken with {@code eps} added. */
    void rmsNorm(Activations x, Weight weight, float eps, int n, Activations out);

    /** {@code out[t] = (x[t] - mean) / sqrt(var + eps) * weight + bias}. */
    void layerNorm(Activations x, Weight weight, Weight bias, float eps, int n, Activations out);

    /** {@code out[t] = W x[t]} for a weight of {@code out.cols()} rows and {@code x.cols()} columns. */
    void matmul(Weight w, Activations x, int n, Activations out);

    /** {@code x[t] += bias}. */
    void addBias(Activations x, Weight bias, int n);

    /** {@code x[t] += y[t]}. */
    void add(Activations x, Activations y, int n);

    /**
     * Rotates {@code heads} heads of {@code headDim} starting at column {@code col} of each row by
     * the row's position in {@code batch}.
     */
    void rope(Activations x, int col, int heads, int headDim, Batch batch, int n, Rope rope);

    /**
     * Causal attention over the paged cache. Writes each row's key and value (columns
     * {@code attn.keyCol()} and {@code attn.valueCol()} of {@code qkv}) into the cache slot of its
     * position, then attends each row's query heads to its sequence's positions up to its own.
     * Rows are processed in batch order, so a chunk of a prompt sees the chunks before it.
     */
    void attention(Activations qkv, KvStorage kv, int layer, Batch batch, int n, AttentionShape attn, Activations out);

    /**
     * Bidirectional attention for encoders, with no cache: sequence {@code s < sequences} holds rows
     * {@code [starts[s], starts[s + 1])}, and each of those rows' query heads attends to the keys and
     * values (columns {@code attn.keyCol()} and {@code attn.valueCol()} of {@code qkv}) of every row
     * of its own sequence, before and after it. Scores, softmax and the weighted sum stay float32,
     * as in llama.cpp's BERT graph, which multiplies K by Q and V by the softmax as F32 matrices.
     * {@code attn} must be neither causal nor windowed. Row {@code starts[sequences]} and later are
     * left alone.
     */
    void encoderAttention(Activations qkv, int[] starts, int sequences, AttentionShape attn, Activations out);

    /**
     * {@code x[t][i] = gelu(x[t][i])} in place, GELU in its tanh form
     * {@code 0.5 v (1 + tanh(sqrt(2/pi) v (1 + 0.044715 v^2)))}, the form llama.cpp's BERT graph
     * uses (Hugging Face's BERT uses erf). The CPU backend reproduces ggml's CPU kernel, which
     * reads a table indexed by the input rounded to half and returns a half (inputs at or below -10
     * give 0, at or above 10 give the input); a backend may compute it in float32 instead, as ggml's
     * GPU kernels do: the difference stays far inside the embedding goldens' tolerances.
     */
    void gelu(Activations x, int n);

    /**
     * {@code out[s]} = the pooling of rows {@code [starts[s], starts[s + 1])} of {@code x}, for
     * {@code s < sequences}: their mean, their first row or their last.
     */
    void pool(Activations x, int[] starts, int sequences, Pooling pooling, Activations out);

    /** {@code out[t][i] = silu(gateUp[t][i]) * gateUp[t][i + out.cols()]}: the fused gate|up halves. */
    void swiGlu(Activations gateUp, int n, Activations out);

    /** {@code out[i] = x[rows[i]]} for {@code i < rows.length}. */
    void gatherRows(Activations x, int[] rows, Activations out);

    /** Copies the first {@code n} rows to {@code dst[dstOffset..]} (row-major, {@code x.cols()} per row). */
    void read(Activations x, int n, float[] dst, int dstOffset);

    /** The largest {@code k} that {@link #topK} takes. */
    int MAX_TOP_K = 64;

    /**
     * The {@code k} largest values of each of the first {@code n} rows of {@code x} (logits), best
     * first, ties to the lower column: {@code ids[at + t * k + j]} is row t's j-th best column and
     * {@code values[at + t * k + j]} its value. A GPU chooses them on the device, so only
     * {@code n * k} pairs cross to the host instead of whole rows.
     *
     * @throws IllegalArgumentException unless {@code 1 <= k <= min(MAX_TOP_K, x.cols())}
     */
    void topK(Activations x, int n, int k, int[] ids, float[] values, int at);

    @Override
    void close();
}
