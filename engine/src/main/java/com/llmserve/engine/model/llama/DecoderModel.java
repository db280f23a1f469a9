package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.Cleanup;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.Pending;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.backend.Step;
import com.llmserve.engine.backend.Unary;
import com.llmserve.engine.model.ForwardProbe;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.Logits;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.model.PendingLogits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The llama-family decoder shared by every architecture of the family: pre-norm blocks of
 * RMSNorm → grouped-query attention with rotary positions → residual → RMSNorm → gated
 * feed-forward (or a mixture of experts) → residual, then a final RMSNorm and the output
 * projection. Members add per-head q/k norms, post-sublayer norms, embedding scaling, windowed
 * layers and logit soft-capping ({@link Variant}, and tensors found by name). Scratch activations are allocated
 * once for {@link ModelOptions#maxBatchTokens()} rows; nothing is allocated per forward pass.
 *
 * <p><b>Tensor parallelism.</b> On a backend with several {@linkplain Backend#shards() shards} each
 * shard holds its part of every layer ({@link ShardSplit}) and its part of the KV cache (its kv
 * heads); a layer records its attention on every shard, sums the attention outputs across them
 * ({@link Backend#allReduceSum}), then its feed-forward likewise. The residual stream is whole on
 * every shard; shard 0 alone computes the logits.
 */
final class DecoderModel implements LanguageModel {

    /**
     * Logit rows computed per output-projection step, bounding the logits scratch (rows x vocab): a
     * decode step's largest graph bucket in one pass, so that its head reads the output weight once
     * (an 8B's 64-row step on an H200: 0.10 ms of its graph in two passes of 32 rows).
     */
    private static final int LOGIT_CHUNK = 64;

    /**
     * Most (token, expert) pairs of a mixture's pass: a 512-token prompt of 8 experts per token in
     * one pass, for ~72 MB of scratch at qwen3-30b-a3b's widths.
     */
    private static final int MAX_PAIRS_PER_PASS = 4096;

    private final DecoderConfig cfg;
    private final int vocabSize;
    private final int contextLength;
    private final int maxRows;
    private final KvCacheType kvCacheType;
    private final Rope[] rope;
    /** Consecutive passes alternate between these, so a pass can be submitted before the last is read. */
    private final Logits[] logitsPair;

    private final Submitted[] submittedWith = new Submitted[2];
    private int nextLogits;
    /** The pass submitted last, whose choices the next batch may take. */
    private Submitted previous;

    private final Shard[] shards;
    private ForwardProbe probe = ForwardProbe.NONE;

    private final Activations last;
    private final Activations lastNorm;
    private final Activations logitRows;

    /**
     * One shard's layers: its backend, weights and configuration ({@link DecoderConfig#shard}), its
     * attention shapes per layer (windowed layers may differ in window and rope base: gemma3) and
     * its scratch. The only one, without tensor parallelism.
     */
    private static final class Shard {

        final Backend be;
        final DecoderConfig cfg;
        final DecoderWeights w;
        final AttentionShape[] attn;
        final Activations x;
        final Activations xb;
        final Activations qkv;
        final Activations att;
        final Activations gateUp;
        final Activations hidden;
        final MixtureOfExperts moe;

        Shard(Backend be, DecoderConfig cfg, DecoderWeights w, int maxRows) {
            this.be = be;
            this.cfg = cfg;
            this.w = w;
            this.attn = new AttentionShape[cfg.layers()];
            for (int l = 0; l < cfg.layers(); l++) {
                attn[l] = cfg.attention(l).withSinks(w.layers.get(l).sinks()); // gpt-oss's sinks, if any
            }
            int d = cfg.embedding();
            Experts experts = cfg.variant().experts();
            int ff = experts == null ? cfg.feedForward() : experts.feedForward();
            x = be.allocate(maxRows, d);
            xb = be.allocate(maxRows, d);
            qkv = be.allocate(maxRows, cfg.queryDim() + 2 * cfg.kvDim());
            att = be.allocate(maxRows, cfg.queryDim());
            // a mixture's (token, expert) pairs use these rows: as many as a pass of MAX_PAIRS_PER_PASS
            // (fewer passes read each chosen expert fewer times), and one token's at least
            int ffRows = experts == null
                    ? maxRows
                    : Math.max(
                            Math.max(maxRows, experts.used()), Math.min(maxRows * experts.used(), MAX_PAIRS_PER_PASS));
            gateUp = be.allocate(ffRows, 2 * ff);
            hidden = be.allocate(ffRows, ff);
            moe = experts == null
                    ? null
                    : new MixtureOfExperts(be, experts, cfg.variant().glu(), maxRows, d, ff, gateUp, hidden);
        }

        void close() {
            for (Activations a : new Activations[] {x, xb, qkv, att, gateUp, hidden}) {
                a.close();
            }
            if (moe != null) {
                moe.close();
            }
            w.close();
        }
    }

    /**
     * @param cfg      the whole model's configuration
     * @param shardCfg each shard's ({@link DecoderConfig#shard}; {@code cfg} on one backend)
     * @param backends the shards' backends, in rank order
     * @param parts    their weights ({@link DecoderWeights#load} with each one's {@link ShardSplit})
     */
    DecoderModel(
            DecoderConfig cfg,
            DecoderConfig shardCfg,
            List<? extends Backend> backends,
            List<DecoderWeights> parts,
            ModelOptions options) {
        this.cfg = cfg;
        DecoderWeights first = parts.getFirst();
        this.vocabSize = first.vocabSize;
        this.contextLength = options.contextLength() > 0 ? options.contextLength() : cfg.contextLength();
        this.maxRows = options.maxBatchTokens();
        this.kvCacheType = options.kvCacheType();
        this.rope = new Rope[cfg.layers()];
        // as llama.cpp: Phi-3's long factors once the context reaches past the original one
        float[] factors = first.ropeLongFactors == null
                ? first.ropeFreqFactors
                : contextLength > cfg.ropeOriginalContext() ? first.ropeLongFactors : first.ropeShortFactors;
        for (int l = 0; l < cfg.layers(); l++) {
            rope[l] = cfg.rope(l, factors);
        }
        this.logitsPair = new Logits[] {new Logits(vocabSize), new Logits(vocabSize)};
        this.shards = new Shard[backends.size()];
        for (int i = 0; i < shards.length; i++) {
            shards[i] = new Shard(backends.get(i), shardCfg, parts.get(i), maxRows);
        }
        Backend be = backends.getFirst();
        int logitChunk = Math.min(LOGIT_CHUNK, maxRows);
        last = be.allocate(logitChunk, cfg.embedding());
        lastNorm = be.allocate(logitChunk, cfg.embedding());
        logitRows = be.allocate(logitChunk, vocabSize);
    }

    @Override
    public String architecture() {
        return cfg.architecture();
    }

    @Override
    public int vocabSize() {
        return vocabSize;
    }

    @Override
    public int contextLength() {
        return contextLength;
    }

    @Override
    public int layers() {
        return cfg.layers();
    }

    @Override
    public int kvDim() {
        return cfg.kvDim();
    }

    DecoderConfig config() {
        return cfg;
    }

    @Override
    public KvCacheType kvCacheType() {
        return kvCacheType;
    }

    @Override
    public KvStorage newKvStorage(int blocks, int blockSize) {
        return newKvStorage(new int[cfg.layers()], new int[] {blocks}, blockSize);
    }

    @Override
    public KvStorage newKvStorage(int[] groupOfLayer, int[] blocksOfGroup, int blockSize) {
        if (groupOfLayer.length != cfg.layers()) {
            throw new IllegalArgumentException(
                    groupOfLayer.length + " layers' KV groups for " + cfg.layers() + " layers");
        }
        if (shards.length == 1) {
            return shards[0].be.allocateKv(groupOfLayer, blocksOfGroup, blockSize, cfg.kvDim(), kvCacheType);
        }
        List<KvStorage> parts = new ArrayList<>();
        try {
            for (Shard s : shards) {
                parts.add(s.be.allocateKv(groupOfLayer, blocksOfGroup, blockSize, s.cfg.kvDim(), kvCacheType));
            }
        } catch (RuntimeException | Error e) {
            parts.forEach(KvStorage::close);
            throw e;
        }
        return new ShardedKv(shards[0].be, groupOfLayer, blocksOfGroup, blockSize, cfg.kvDim(), kvCacheType, parts);
    }

    @Override
    public int slidingWindow(int layer) {
        return shards[0].attn[layer].slidingWindow();
    }

    /**
     * @throws UnsupportedOperationException on a model split over GPUs: a probe reads one backend's
     *     activations in the middle of a step, where a shard's are partial sums
     */
    @Override
    public void setProbe(ForwardProbe probe) {
        if (shards.length > 1 && probe != null && probe != ForwardProbe.NONE) {
            throw new UnsupportedOperationException("forward probes read one backend; this model is split over "
                    + shards.length + " (" + shards[0].be.name() + ")");
        }
        this.probe = probe == null ? ForwardProbe.NONE : probe;
    }

    @Override
    public Logits forward(Batch batch, KvStorage kv, int topK, long[][] allowed) {
        return submit(batch, kv, topK, allowed).await();
    }

    /** A submitted pass: its logits, what it waits on, and whether its choices stayed on the device. */
    private record Submitted(Logits logits, Pending pending, boolean choicesOnDevice) implements PendingLogits {
        @Override
        public Logits await() {
            pending.await();
            return logits;
        }
    }

    @Override
    public boolean submitsAhead() {
        return shards.length == 1 && shards[0].be.choosesAhead();
    }

    @Override
    public PendingLogits submit(Batch batch, KvStorage kv, int topK, long[][] allowed) {
        if (kv.layers() != cfg.layers() || kv.kvDim() != cfg.kvDim() || kv.blockSize() != batch.blockSize()) {
            throw new IllegalArgumentException("KV storage (" + kv.layers() + " layers, " + kv.kvDim()
                    + " dims, blocks of " + kv.blockSize() + ") does not fit this model and batch");
        }
        if (shards.length > 1 && !(kv instanceof ShardedKv sk && sk.parts().size() == shards.length)) {
            throw new IllegalArgumentException("KV storage " + kv + " is not this model's shards' (newKvStorage)");
        }
        if (topK < 0 || topK > Math.min(Backend.MAX_TOP_K, vocabSize)) {
            throw new IllegalArgumentException(
                    "topK must be in [0, " + Math.min(Backend.MAX_TOP_K, vocabSize) + "]: " + topK);
        }
        Submitted before = previous;
        previous = null; // a pass that fails leaves no choices to take
        boolean oneStep = batch.size() <= maxRows && batch.logitRowCount() <= last.rows();
        boolean takeOnDevice = false;
        if (batch.takesChoices()) {
            if (before == null) {
                throw new IllegalStateException(
                        "the batch takes the choices of the pass before it, and none came before");
            }
            takeOnDevice = before.choicesOnDevice() && oneStep;
            if (!takeOnDevice) {
                batch = batch.withChoices(bestOf(before.await()));
            }
        }
        int slot = nextLogits;
        nextLogits ^= 1;
        if (submittedWith[slot] != null) {
            submittedWith[slot].pending().await(); // its arrays are refilled next
            submittedWith[slot] = null;
        }
        Logits logits = logitsPair[slot];
        if (topK > 0) {
            logits.resetTop(batch.logitRowCount(), topK);
        } else {
            logits.reset(batch.logitRowCount());
        }
        Submitted done;
        if (topK > 0 && oneStep && batch.logitRowCount() > 0 && submitsAhead()) {
            Pending p = forwardLater(batch, kv, logits, topK, allowed, takeOnDevice);
            done = new Submitted(logits, p, true);
        } else {
            int logitRow = 0;
            for (int from = 0; from < batch.size(); from += maxRows) {
                Batch chunk = batch.slice(from, Math.min(batch.size(), from + maxRows));
                logitRow = forwardChunk(chunk, kv, logits, logitRow, topK, allowed, false, null);
            }
            done = new Submitted(logits, Pending.DONE, false);
        }
        submittedWith[slot] = done;
        previous = done;
        return done;
    }

    /** The batch in one step whose choices are made on the device, the pass not waited for. */
    private Pending forwardLater(
            Batch batch, KvStorage kv, Logits logits, int topK, long[][] allowed, boolean takeOnDevice) {
        Pending[] pending = new Pending[1];
        forwardChunk(batch, kv, logits, 0, topK, allowed, takeOnDevice, pending);
        return pending[0];
    }

    private static int[] bestOf(Logits l) {
        int[] best = new int[l.rows()];
        for (int r = 0; r < best.length; r++) {
            best[r] = l.best(r);
        }
        return best;
    }

    private static KvStorage kvOf(KvStorage kv, int shard) {
        return kv instanceof ShardedKv sk ? sk.parts().get(shard) : kv;
    }

    /**
     * One step over a chunk of the batch: the layers on every shard, then the logits of its logit
     * rows on shard 0. Every shard's step is open while the layers are recorded: the first sync
     * runs them all.
     */
    private int forwardChunk(
            Batch b,
            KvStorage kv,
            Logits logits,
            int logitRow,
            int topK,
            long[][] allowed,
            boolean takeOnDevice,
            Pending[] later) {
        int n = b.size();
        Step[] steps = new Step[shards.length];
        try {
            for (int i = 0; i < shards.length; i++) {
                steps[i] = shards[i].be.beginStep(b);
            }
            for (Shard s : shards) {
                if (takeOnDevice) {
                    s.be.embedChoices(s.w.tokenEmbedding, b.tokens(), choiceRows(b), n, s.x);
                } else {
                    s.be.embed(s.w.tokenEmbedding, b.tokens(), n, s.x);
                }
                if (cfg.variant().embeddingScale() != 1f) {
                    s.be.scale(s.x, cfg.variant().embeddingScale(), n); // gemma
                }
            }
            for (int l = 0; l < cfg.layers(); l++) {
                for (int i = 0; i < shards.length; i++) {
                    attention(shards[i], l, kvOf(kv, i), n);
                }
                sum(n);
                for (Shard s : shards) {
                    feedForward(s, l, n);
                }
                if (shards[0].moe == null) {
                    sum(n);
                    for (Shard s : shards) {
                        afterFeedForward(s, l, n);
                    }
                }
                probe.tap("l_out", l, shards[0].x, n);
            }
            logitRow = logits(shards[0], b, logits, logitRow, topK, allowed, later);
        } finally {
            Cleanup.each(Arrays.stream(steps).filter(Objects::nonNull).toList(), Step::close);
        }
        return logitRow;
    }

    /** Every shard's partial {@code xb} summed across the shards (nothing to do on one). */
    private void sum(int n) {
        if (shards.length > 1) {
            for (Shard s : shards) {
                s.be.allReduceSum(s.xb, n);
            }
        }
    }

    /** The attention of layer {@code l} up to its output projection: this shard's part in {@code xb}. */
    private void attention(Shard s, int l, KvStorage kv, int n) {
        // spotless:off (the probe column)
        Backend be = s.be;
        DecoderConfig c = s.cfg;
        DecoderWeights.Layer lw = s.w.layers.get(l);
        AttentionShape attn = s.attn[l];
        be.rmsNorm(s.x, lw.attnNorm(), cfg.rmsEps(), n, s.xb);           probe.tap("attn_norm", l, s.xb, n);
        be.matmul(lw.qkv(), s.xb, n, s.qkv);                             // fused q|k|v
        if (lw.qkvBias() != null) {
            be.addBias(s.qkv, lw.qkvBias(), n);                          // qwen2-style attention bias
        }
        if (lw.qNorm() != null) {                                        // qwen3, gemma3: per-head norms
            be.headRmsNorm(s.qkv, 0, c.heads(), c.headDim(), lw.qNorm(), cfg.rmsEps(), n);
            be.headRmsNorm(s.qkv, attn.keyCol(), c.kvHeads(), c.headDim(), lw.kNorm(), cfg.rmsEps(), n);
        }
        be.rope(s.qkv, 0, c.heads(), c.headDim(), n, rope[l]);          // queries
        be.rope(s.qkv, attn.keyCol(), c.kvHeads(), c.headDim(), n, rope[l]); // keys
        be.attention(s.qkv, kv, l, n, attn, s.att);                      probe.tap("kqv_out", l, s.att, n);
        be.matmul(lw.attnOutput(), s.att, n, s.xb);
        // spotless:on
    }

    /**
     * The rest of layer {@code l} once {@code xb} holds the whole attention output: its residual,
     * then the feed-forward, leaving this shard's part of a dense one in {@code xb} (a mixture's
     * output is added here: mixtures are not split).
     */
    private void feedForward(Shard s, int l, int n) {
        // spotless:off (the probe column)
        Backend be = s.be;
        DecoderWeights.Layer lw = s.w.layers.get(l);
        if (lw.attnOutputBias() != null) {
            be.addBias(s.xb, lw.attnOutputBias(), n);                     // gpt-oss
        }
        if (lw.postAttnNorm() != null) {
            be.rmsNorm(s.xb, lw.postAttnNorm(), cfg.rmsEps(), n, s.xb);   // gemma
        }
        be.add(s.x, s.xb, n);                                             probe.tap("ffn_inp", l, s.x, n);
        be.rmsNorm(s.x, lw.ffnNorm(), cfg.rmsEps(), n, s.xb);             probe.tap("ffn_norm", l, s.xb, n);
        if (s.moe != null) {
            s.moe.forward(lw.experts(), s.xb, n);
            be.add(s.x, s.moe.out(), n);
        } else {
            be.matmul(lw.gateUp(), s.xb, n, s.gateUp);                    // fused gate|up
            be.glu(cfg.variant().glu(), s.gateUp, n, s.hidden);
            be.matmul(lw.down(), s.hidden, n, s.xb);
        }
        // spotless:on
    }

    /** A dense feed-forward's whole output in {@code xb}, into the residual. */
    private void afterFeedForward(Shard s, int l, int n) {
        DecoderWeights.Layer lw = s.w.layers.get(l);
        if (lw.postFfnNorm() != null) {
            s.be.rmsNorm(s.xb, lw.postFfnNorm(), cfg.rmsEps(), n, s.xb); // gemma
        }
        s.be.add(s.x, s.xb, n);
    }

    private static int[] choiceRows(Batch b) {
        int[] rows = new int[b.size()];
        for (int r = 0; r < rows.length; r++) {
            rows[r] = b.choiceOf(r);
        }
        return rows;
    }

    /**
     * Only the rows whose logits were asked for go through the output projection; with
     * {@code later}, in one part whose choices the backend makes without waiting (its pending there).
     */
    private int logits(Shard s, Batch b, Logits logits, int logitRow, int topK, long[][] allowed, Pending[] later) {
        // spotless:off (the probe column)
        Backend be = s.be;
        int[] rows = b.logitRows();
        for (int from = 0; from < rows.length; from += last.rows()) {
            int[] part = Arrays.copyOfRange(rows, from, Math.min(rows.length, from + last.rows()));
            be.gatherRows(s.x, part, last);
            be.rmsNorm(last, s.w.outputNorm, cfg.rmsEps(), part.length, lastNorm);   probe.tap("result_norm", -1, lastNorm, part.length);
            be.matmul(s.w.output, lastNorm, part.length, logitRows);
            float cap = cfg.variant().logitSoftcap();
            if (cap > 0) {
                be.scale(logitRows, 1f / cap, part.length);
                be.unary(Unary.TANH, logitRows, part.length);
                be.scale(logitRows, cap, part.length);
            }
            probe.tap("result_output", -1, logitRows, part.length);
            if (later != null) {
                later[0] = be.topKLater(logitRows, part.length, topK, logits.topIds(), logits.topValues(),
                        logitRow * topK, Backend.packMasks(allowed, logitRow, part.length, vocabSize));
            } else if (topK > 0) {
                be.topK(logitRows, part.length, topK, logits.topIds(), logits.topValues(), logitRow * topK,
                        Backend.packMasks(allowed, logitRow, part.length, vocabSize));
            } else {
                be.read(logitRows, part.length, logits.array(), logitRow * vocabSize);
            }
            logitRow += part.length;
        }
        // spotless:on
        return logitRow;
    }

    @Override
    public void close() {
        for (Activations a : new Activations[] {last, lastNorm, logitRows}) {
            a.close();
        }
        for (Shard s : shards) {
            s.close();
        }
    }

    @Override
    public String toString() {
        return cfg.architecture() + " decoder: " + cfg.layers() + " layers, width " + cfg.embedding() + ", "
                + cfg.heads() + "/" + cfg.kvHeads() + " heads, vocab " + vocabSize + " on " + shards[0].be.name()
                + (shards.length > 1 ? " (" + shards.length + " shards)" : "");
    }
}
