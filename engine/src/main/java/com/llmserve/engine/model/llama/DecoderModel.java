package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.backend.Step;
import com.llmserve.engine.backend.Unary;
import com.llmserve.engine.model.ForwardProbe;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.Logits;
import com.llmserve.engine.model.ModelOptions;
import java.util.Arrays;

/**
 * The llama-family decoder shared by every architecture of the family: pre-norm blocks of
 * RMSNorm → grouped-query attention with rotary positions → residual → RMSNorm → gated
 * feed-forward (or a mixture of experts) → residual, then a final RMSNorm and the output
 * projection. Members add per-head q/k norms, post-sublayer norms, embedding scaling, windowed
 * layers and logit soft-capping ({@link Variant}, and tensors found by name). Scratch activations are allocated
 * once for {@link ModelOptions#maxBatchTokens()} rows; nothing is allocated per forward pass.
 */
final class DecoderModel implements LanguageModel {

    /** Logit rows computed per output-projection step, bounding the logits scratch (rows x vocab). */
    private static final int LOGIT_CHUNK = 32;

    /**
     * Most (token, expert) pairs of a mixture's pass: a 512-token prompt of 8 experts per token in
     * one pass, for ~72 MB of scratch at qwen3-30b-a3b's widths.
     */
    private static final int MAX_PAIRS_PER_PASS = 4096;

    private final DecoderConfig cfg;
    private final DecoderWeights w;
    private final Backend be;
    private final int contextLength;
    private final int maxRows;
    private final KvCacheType kvCacheType;
    /** Per layer: windowed layers may differ in window and rope base (gemma3). */
    private final AttentionShape[] attn;

    private final Rope[] rope;
    private final Logits logits;
    private final MixtureOfExperts moe;
    private ForwardProbe probe = ForwardProbe.NONE;

    private final Activations x;
    private final Activations xb;
    private final Activations qkv;
    private final Activations att;
    private final Activations gateUp;
    private final Activations hidden;
    private final Activations last;
    private final Activations lastNorm;
    private final Activations logitRows;

    DecoderModel(DecoderConfig cfg, DecoderWeights w, Backend be, ModelOptions options) {
        this.cfg = cfg;
        this.w = w;
        this.be = be;
        this.contextLength = options.contextLength() > 0 ? options.contextLength() : cfg.contextLength();
        this.maxRows = options.maxBatchTokens();
        this.kvCacheType = options.kvCacheType();
        this.attn = new AttentionShape[cfg.layers()];
        this.rope = new Rope[cfg.layers()];
        // as llama.cpp: Phi-3's long factors once the context reaches past the original one
        float[] factors = w.ropeLongFactors == null
                ? w.ropeFreqFactors
                : contextLength > cfg.ropeOriginalContext() ? w.ropeLongFactors : w.ropeShortFactors;
        for (int l = 0; l < cfg.layers(); l++) {
            attn[l] = cfg.attention(l).withSinks(w.layers.get(l).sinks()); // gpt-oss's sinks, if any
            rope[l] = cfg.rope(l, factors);
        }
        this.logits = new Logits(w.vocabSize);
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
                : Math.max(Math.max(maxRows, experts.used()), Math.min(maxRows * experts.used(), MAX_PAIRS_PER_PASS));
        gateUp = be.allocate(ffRows, 2 * ff);
        hidden = be.allocate(ffRows, ff);
        moe = experts == null
                ? null
                : new MixtureOfExperts(be, experts, cfg.variant().glu(), maxRows, d, ff, gateUp, hidden);
        int logitChunk = Math.min(LOGIT_CHUNK, maxRows);
        last = be.allocate(logitChunk, d);
        lastNorm = be.allocate(logitChunk, d);
        logitRows = be.allocate(logitChunk, w.vocabSize);
    }

    @Override
    public String architecture() {
        return cfg.architecture();
    }

    @Override
    public int vocabSize() {
        return w.vocabSize;
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
        return be.allocateKv(new int[cfg.layers()], new int[] {blocks}, blockSize, cfg.kvDim(), kvCacheType);
    }

    @Override
    public KvStorage newKvStorage(int[] groupOfLayer, int[] blocksOfGroup, int blockSize) {
        if (groupOfLayer.length != cfg.layers()) {
            throw new IllegalArgumentException(
                    groupOfLayer.length + " layers' KV groups for " + cfg.layers() + " layers");
        }
        return be.allocateKv(groupOfLayer, blocksOfGroup, blockSize, cfg.kvDim(), kvCacheType);
    }

    @Override
    public int slidingWindow(int layer) {
        return attn[layer].slidingWindow();
    }

    @Override
    public void setProbe(ForwardProbe probe) {
        this.probe = probe == null ? ForwardProbe.NONE : probe;
    }

    @Override
    public Logits forward(Batch batch, KvStorage kv, int topK, long[][] allowed) {
        if (kv.layers() != cfg.layers() || kv.kvDim() != cfg.kvDim() || kv.blockSize() != batch.blockSize()) {
            throw new IllegalArgumentException("KV storage (" + kv.layers() + " layers, " + kv.kvDim()
                    + " dims, blocks of " + kv.blockSize() + ") does not fit this model and batch");
        }
        if (topK < 0 || topK > Math.min(Backend.MAX_TOP_K, w.vocabSize)) {
            throw new IllegalArgumentException(
                    "topK must be in [0, " + Math.min(Backend.MAX_TOP_K, w.vocabSize) + "]: " + topK);
        }
        if (topK > 0) {
            logits.resetTop(batch.logitRowCount(), topK);
        } else {
            logits.reset(batch.logitRowCount());
        }
        int logitRow = 0;
        for (int from = 0; from < batch.size(); from += maxRows) {
            Batch chunk = batch.slice(from, Math.min(batch.size(), from + maxRows));
            logitRow = forwardChunk(chunk, kv, logitRow, topK, allowed);
        }
        return logits;
    }

    /** One step over a chunk of the batch: the layers, then the logits of its logit rows. */
    private int forwardChunk(Batch b, KvStorage kv, int logitRow, int topK, long[][] allowed) {
        int n = b.size();
        try (Step step = be.beginStep(b)) {
            // spotless:off (the probe column)
            be.embed(w.tokenEmbedding, b.tokens(), n, x);
            if (cfg.variant().embeddingScale() != 1f) {
                be.scale(x, cfg.variant().embeddingScale(), n);                // gemma
            }
            for (int l = 0; l < cfg.layers(); l++) {
                DecoderWeights.Layer lw = w.layers.get(l);
                be.rmsNorm(x, lw.attnNorm(), cfg.rmsEps(), n, xb);          probe.tap("attn_norm", l, xb, n);
                be.matmul(lw.qkv(), xb, n, qkv);                             // fused q|k|v
                if (lw.qkvBias() != null) {
                    be.addBias(qkv, lw.qkvBias(), n);                        // qwen2-style attention bias
                }
                if (lw.qNorm() != null) {                                    // qwen3, gemma3: per-head norms
                    be.headRmsNorm(qkv, 0, cfg.heads(), cfg.headDim(), lw.qNorm(), cfg.rmsEps(), n);
                    be.headRmsNorm(qkv, attn[l].keyCol(), cfg.kvHeads(), cfg.headDim(), lw.kNorm(), cfg.rmsEps(), n);
                }
                be.rope(qkv, 0, cfg.heads(), cfg.headDim(), n, rope[l]);    // queries
                be.rope(qkv, attn[l].keyCol(), cfg.kvHeads(), cfg.headDim(), n, rope[l]); // keys
                be.attention(qkv, kv, l, n, attn[l], att);                   probe.tap("kqv_out", l, att, n);
                be.matmul(lw.attnOutput(), att, n, xb);
                if (lw.attnOutputBias() != null) {
                    be.addBias(xb, lw.attnOutputBias(), n);                 // gpt-oss
                }
                if (lw.postAttnNorm() != null) {
                    be.rmsNorm(xb, lw.postAttnNorm(), cfg.rmsEps(), n, xb);  // gemma
                }
                be.add(x, xb, n);                                            probe.tap("ffn_inp", l, x, n);
                be.rmsNorm(x, lw.ffnNorm(), cfg.rmsEps(), n, xb);            probe.tap("ffn_norm", l, xb, n);
                if (moe != null) {
                    moe.forward(lw.experts(), xb, n);
                    be.add(x, moe.out(), n);
                } else {
                    be.matmul(lw.gateUp(), xb, n, gateUp);                   // fused gate|up
                    be.glu(cfg.variant().glu(), gateUp, n, hidden);
                    be.matmul(lw.down(), hidden, n, xb);
                    if (lw.postFfnNorm() != null) {
                        be.rmsNorm(xb, lw.postFfnNorm(), cfg.rmsEps(), n, xb); // gemma
                    }
                    be.add(x, xb, n);
                }
                probe.tap("l_out", l, x, n);
            }
            // Only the rows whose logits were asked for go through the output projection.
            int[] rows = b.logitRows();
            for (int from = 0; from < rows.length; from += last.rows()) {
                int[] part = Arrays.copyOfRange(rows, from, Math.min(rows.length, from + last.rows()));
                be.gatherRows(x, part, last);
                be.rmsNorm(last, w.outputNorm, cfg.rmsEps(), part.length, lastNorm);   probe.tap("result_norm", -1, lastNorm, part.length);
                be.matmul(w.output, lastNorm, part.length, logitRows);
                float cap = cfg.variant().logitSoftcap();
                if (cap > 0) {
                    be.scale(logitRows, 1f / cap, part.length);
                    be.unary(Unary.TANH, logitRows, part.length);
                    be.scale(logitRows, cap, part.length);
                }
                probe.tap("result_output", -1, logitRows, part.length);
                if (topK > 0) {
                    be.topK(logitRows, part.length, topK, logits.topIds(), logits.topValues(), logitRow * topK,
                            Backend.packMasks(allowed, logitRow, part.length, w.vocabSize));
                } else {
                    be.read(logitRows, part.length, logits.array(), logitRow * w.vocabSize);
                }
                logitRow += part.length;
            }
            // spotless:on
        }
        return logitRow;
    }

    @Override
    public void close() {
        for (Activations a : new Activations[] {x, xb, qkv, att, gateUp, hidden, last, lastNorm, logitRows}) {
            a.close();
        }
        if (moe != null) {
            moe.close();
        }
        w.close();
    }

    @Override
    public String toString() {
        return cfg.architecture() + " decoder: " + cfg.layers() + " layers, width " + cfg.embedding() + ", "
                + cfg.heads() + "/" + cfg.kvHeads() + " heads, vocab " + w.vocabSize + " on " + be.name();
    }
}
