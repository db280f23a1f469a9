package com.llmserve.engine.model;

import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.KvStorage;

/**
 * A text-generation model loaded onto a backend. Batch-first: one {@link #forward} call runs many
 * sequences at different positions. Not thread-safe; one engine loop drives it.
 */
public interface LanguageModel extends AutoCloseable {

    /** {@code general.architecture}, e.g. {@code llama}. */
    String architecture();

    int vocabSize();

    /** The longest sequence the model was trained for (or the configured limit). */
    int contextLength();

    /** Layers and per-token key/value width, what a KV storage must fit. */
    int layers();

    int kvDim();

    /** How {@link #newKvStorage} stores keys and values (the model's {@code ModelOptions}). */
    default KvCacheType kvCacheType() {
        return KvCacheType.F16;
    }

    /** KV cache memory for {@code blocks} blocks of {@code blockSize} token slots, on this model's backend. */
    KvStorage newKvStorage(int blocks, int blockSize);

    /**
     * The sliding window of layer {@code layer}'s attention: a position sees only the last
     * {@code window} positions (itself included); 0 when it sees every position before it.
     */
    default int slidingWindow(int layer) {
        return 0;
    }

    /**
     * KV cache memory in KV groups (see {@code KvStorage}): layer {@code l} in group
     * {@code groupOfLayer[l]}, which holds {@code blocksOfGroup[group]} blocks per layer.
     */
    default KvStorage newKvStorage(int[] groupOfLayer, int[] blocksOfGroup, int blockSize) {
        if (blocksOfGroup.length == 1) {
            return newKvStorage(blocksOfGroup[0], blockSize);
        }
        throw new UnsupportedOperationException(architecture() + " keeps its KV cache in one group");
    }

    /**
     * Runs the batch, writing its keys and values into {@code kv} at the slots its block tables
     * give, and returns the logits of {@link Batch#logitRows()} in that order. The returned
     * object is reused by the second pass after this one.
     */
    default Logits forward(Batch batch, KvStorage kv) {
        return forward(batch, kv, 0);
    }

    /**
     * {@link #forward(Batch, KvStorage)}, keeping of each logit row only its {@code topK} best
     * tokens (ids and logits, see {@link Logits#topK()}) when {@code topK > 0}: they are chosen on
     * the backend, so a GPU copies {@code topK} pairs per row instead of the vocabulary's logits.
     */
    default Logits forward(Batch batch, KvStorage kv, int topK) {
        return forward(batch, kv, topK, null);
    }

    /**
     * {@link #forward(Batch, KvStorage, int)} with the top-k chosen among allowed tokens only:
     * {@code allowed[i]} (one bit per token, {@code allowed[i][t >>> 6] >>> t & 1}) masks logit row
     * i, a null entry or array masks nothing (a grammar's tokens, so greedy constrained decoding
     * needs no whole rows). A row with no allowed token gets ids outside the vocabulary. Whole rows
     * ({@code topK == 0}) come unmasked.
     */
    Logits forward(Batch batch, KvStorage kv, int topK, long[][] allowed);

    /**
     * {@link #forward(Batch, KvStorage, int, long[][])} that may return before the pass has run
     * (where {@link #submitsAhead()}): the host can build and submit the next step while the device
     * runs this one. Rows of {@code batch} may take the best token of a logit row of the pass
     * submitted just before ({@link Batch.Builder#addChoice}), which needs no wait for that pass
     * where the model submits ahead. Await a pass before submitting the second one after it: its
     * logits object is reused then.
     *
     * @throws IllegalStateException when the batch takes choices and no pass came before
     */
    PendingLogits submit(Batch batch, KvStorage kv, int topK, long[][] allowed);

    /**
     * Whether {@link #submit} returns before a pass that keeps only each row's best tokens
     * ({@code topK > 0}) has run, and a batch takes that pass's choices where they were made (a
     * model on one GPU); otherwise submitting waits, as {@code forward} does.
     */
    default boolean submitsAhead() {
        return false;
    }

    /** Installs a probe that sees named intermediate activations (parity debugging); {@link ForwardProbe#NONE} by default. */
    void setProbe(ForwardProbe probe);

    @Override
    void close();
}
