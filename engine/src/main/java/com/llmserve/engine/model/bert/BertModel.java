package com.llmserve.engine.model.bert;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Step;
import com.llmserve.engine.model.EmbeddingModel;
import com.llmserve.engine.model.ForwardProbe;
import com.llmserve.engine.model.InputTooLongException;
import com.llmserve.engine.model.ModelOptions;
import java.util.List;

/**
 * A BERT encoder as llama.cpp runs it: token + type-0 + position embeddings and a LayerNorm, then
 * post-norm blocks of bidirectional attention → residual → LayerNorm → GELU feed-forward →
 * residual → LayerNorm, then pooling per input and L2 normalisation. Many inputs run in one
 * forward pass as consecutive row spans; attention never crosses a span. Scratch buffers hold
 * {@code max(maxBatchTokens, contextLength)} rows, so any input that fits the context fits a pass;
 * nothing is allocated per call but the returned vectors.
 */
final class BertModel implements EmbeddingModel {

    private final BertConfig cfg;
    private final BertWeights w;
    private final Backend be;
    private final int contextLength;
    private final int maxRows;
    private final AttentionShape attn;
    private ForwardProbe probe = ForwardProbe.NONE;

    /** The plan of one pass, reused: token ids and positions per row, and where each input's rows start. */
    private final int[] tokens;

    private final int[] positions;
    private final int[] starts;
    private final float[] pooledHost;

    private final Activations x;
    private final Activations h;
    private final Activations tmp;
    private final Activations qkv;
    private final Activations att;
    private final Activations ff;
    private final Activations pooled;

    BertModel(BertConfig cfg, BertWeights w, Backend be, ModelOptions options) {
        this.cfg = cfg;
        this.w = w;
        this.be = be;
        this.contextLength = contextLength(cfg, options);
        this.maxRows = Math.max(options.maxBatchTokens(), contextLength);
        this.attn = cfg.attention();
        int d = cfg.embedding();
        tokens = new int[maxRows];
        positions = new int[maxRows];
        starts = new int[maxRows + 1];
        pooledHost = new float[maxRows * d];
        x = be.allocate(maxRows, d);
        h = be.allocate(maxRows, d);
        tmp = be.allocate(maxRows, d);
        qkv = be.allocate(maxRows, cfg.queryDim() + 2 * cfg.kvDim());
        att = be.allocate(maxRows, cfg.queryDim());
        ff = be.allocate(maxRows, cfg.feedForward());
        // every input has a row at least, so a pass never has more inputs than rows
        pooled = be.allocate(maxRows, d);
    }

    /** The context served: the model's own, or a shorter one asked for; never longer than the position table. */
    static int contextLength(BertConfig cfg, ModelOptions options) {
        int asked = options.contextLength();
        if (asked > cfg.contextLength()) {
            throw new IllegalArgumentException(
                    "context length " + asked + " exceeds the model's " + cfg.contextLength() + " learned positions");
        }
        return asked > 0 ? asked : cfg.contextLength();
    }

    @Override
    public String architecture() {
        return BertConfig.PREFIX;
    }

    @Override
    public int dimensions() {
        return cfg.embedding();
    }

    @Override
    public int contextLength() {
        return contextLength;
    }

    BertConfig config() {
        return cfg;
    }

    @Override
    public void setProbe(ForwardProbe probe) {
        this.probe = probe == null ? ForwardProbe.NONE : probe;
    }

    @Override
    public float[][] embed(List<int[]> inputs) {
        for (int i = 0; i < inputs.size(); i++) {
            check(i, inputs.get(i));
        }
        float[][] out = new float[inputs.size()][];
        int d = cfg.embedding();
        for (int next = 0; next < inputs.size(); ) {
            // as many whole inputs as the scratch rows hold, in order
            int sequences = 0;
            int rows = 0;
            while (next + sequences < inputs.size() && rows + inputs.get(next + sequences).length <= maxRows) {
                int[] input = inputs.get(next + sequences);
                starts[sequences++] = rows;
                System.arraycopy(input, 0, tokens, rows, input.length);
                for (int p = 0; p < input.length; p++) {
                    positions[rows + p] = p;
                }
                rows += input.length;
            }
            starts[sequences] = rows;
            forward(rows, sequences);
            for (int s = 0; s < sequences; s++) {
                out[next + s] = normalised(pooledHost, s * d, d);
            }
            next += sequences;
        }
        return out;
    }

    /** One pass over {@code n} rows holding {@code sequences} inputs; leaves their pooled vectors in {@link #pooled}. */
    private void forward(int n, int sequences) {
        try (Step step = be.beginStep()) {
            // spotless:off (the probe column)
            be.embed(w.tokenEmbedding, tokens, n, h);
            be.addBias(h, w.tokenType0, n);                                  // every token is of type 0
            be.embed(w.positionEmbedding, positions, n, tmp);
            be.add(h, tmp, n);                                               probe.tap("inp_embd", -1, h, n);
            norm(h, w.embeddingNorm, n, x);                                  probe.tap("inp_norm", -1, x, n);
            for (int l = 0; l < cfg.layers(); l++) {
                BertWeights.Layer lw = w.layers.get(l);
                be.matmul(lw.qkv(), x, n, qkv);                              // fused q|k|v
                be.addBias(qkv, lw.qkvBias(), n);
                be.encoderAttention(qkv, starts, sequences, attn, att);      probe.tap("kqv_merged_cont", l, att, n);
                be.matmul(lw.attnOutput(), att, n, tmp);
                be.addBias(tmp, lw.attnOutputBias(), n);                     probe.tap("kqv_out", l, tmp, n);
                be.add(tmp, x, n);                                           // post-norm: the residual sum is normalised
                norm(tmp, lw.attnOutputNorm(), n, h);                        probe.tap("ffn_inp", l, h, n);
                be.matmul(lw.up(), h, n, ff);
                be.addBias(ff, lw.upBias(), n);
                be.gelu(ff, n);                                              probe.tap("ffn_gelu", l, ff, n);
                be.matmul(lw.down(), ff, n, tmp);
                be.addBias(tmp, lw.downBias(), n);                           probe.tap("ffn_out", l, tmp, n);
                be.add(tmp, h, n);
                norm(tmp, lw.layerOutputNorm(), n, x);                       probe.tap("l_out", l, x, n);
            }
            be.pool(x, starts, sequences, cfg.pooling(), pooled);            probe.tap("result_embd_pooled", -1, pooled, sequences);
            // spotless:on
            be.read(pooled, sequences, pooledHost, 0);
        }
    }

    private void norm(Activations in, BertWeights.Norm norm, int n, Activations out) {
        be.layerNorm(in, norm.weight(), norm.bias(), cfg.layerNormEps(), n, out);
    }

    private void check(int index, int[] input) {
        if (input.length == 0) {
            throw new IllegalArgumentException("input " + index + " has no tokens");
        }
        if (input.length > contextLength) {
            throw new InputTooLongException(index, input.length, contextLength);
        }
        for (int token : input) {
            if (token < 0 || token >= w.vocabSize) {
                throw new IllegalArgumentException(
                        "input " + index + " has token id " + token + ", outside the vocabulary of " + w.vocabSize);
            }
        }
    }

    /** {@code v / |v|} as llama.cpp's {@code common_embd_normalize} forms it: squares summed in double, one float factor. */
    private static float[] normalised(float[] pooled, int off, int d) {
        double sum = 0;
        for (int i = 0; i < d; i++) {
            sum += pooled[off + i] * pooled[off + i];
        }
        float scale = sum > 0 ? (float) (1.0 / Math.sqrt(sum)) : 0f;
        float[] v = new float[d];
        for (int i = 0; i < d; i++) {
            v[i] = pooled[off + i] * scale;
        }
        return v;
    }

    @Override
    public void close() {
        for (Activations a : new Activations[] {x, h, tmp, qkv, att, ff, pooled}) {
            a.close();
        }
        w.close();
    }

    @Override
    public String toString() {
        return "bert encoder: " + cfg.layers() + " layers, width " + cfg.embedding() + ", " + cfg.heads() + " heads, "
                + cfg.pooling() + " pooling, vocab " + w.vocabSize + " on " + be.name();
    }
}
