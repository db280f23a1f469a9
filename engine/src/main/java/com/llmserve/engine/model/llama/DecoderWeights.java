package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufTensor;
import com.llmserve.engine.model.InvalidModelException;
import com.llmserve.engine.model.TensorShapes;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A decoder's weights on a backend, checked against the configuration. Projections that read the
 * same input are fused (q|k|v, gate|up) so each runs as one matrix multiplication.
 */
final class DecoderWeights {

    /**
     * One decoder block. Null where a member has no such tensor: {@code qkvBias}, the per-head
     * {@code qNorm}/{@code kNorm}, the {@code postAttnNorm}/{@code postFfnNorm} applied to a
     * sublayer's output before its residual add (gemma), the {@code attnOutputBias} and per-head
     * attention {@code sinks} (host floats; gpt-oss), and either the dense {@code gateUp}/{@code down}
     * or the {@code experts}.
     */
    record Layer(
            Weight attnNorm,
            Weight qkv,
            Weight qkvBias,
            Weight qNorm,
            Weight kNorm,
            Weight attnOutput,
            Weight attnOutputBias,
            float[] sinks,
            Weight postAttnNorm,
            Weight ffnNorm,
            Weight gateUp,
            Weight down,
            ExpertWeights experts,
            Weight postFfnNorm) {

        List<Weight> all() {
            List<Weight> all = new ArrayList<>(Arrays.asList(
                    attnNorm,
                    qkv,
                    qkvBias,
                    qNorm,
                    kNorm,
                    attnOutput,
                    attnOutputBias,
                    postAttnNorm,
                    ffnNorm,
                    gateUp,
                    down,
                    postFfnNorm));
            if (experts != null) {
                all.addAll(Arrays.asList(
                        experts.router(),
                        experts.gateUp(),
                        experts.down(),
                        experts.routerBias(),
                        experts.gateBias(),
                        experts.upBias(),
                        experts.downBias()));
            }
            all.removeIf(Objects::isNull);
            return all;
        }
    }

    /**
     * A mixture's router ({@code experts x n_embd}) and its experts' fused gate|up and down
     * projections; gpt-oss's biases, null where a file has none: the router's (one per expert), and
     * per expert its gate's, up's and down's, expert after expert.
     */
    record ExpertWeights(
            Weight router,
            Weight gateUp,
            Weight down,
            Weight routerBias,
            Weight gateBias,
            Weight upBias,
            Weight downBias) {}

    final Weight tokenEmbedding;
    /** Null on a tensor-parallel shard but the first, which alone computes the logits. */
    final Weight outputNorm;
    /** The output projection (the token embedding itself when the file ties them); null as {@link #outputNorm}. */
    final Weight output;

    final float[] ropeFreqFactors;
    /** Phi-3's longrope divisors for contexts beyond the original one, and within it; null without them. */
    final float[] ropeLongFactors;

    final float[] ropeShortFactors;
    final List<Layer> layers;
    final int vocabSize;

    private DecoderWeights(
            Weight tokenEmbedding,
            Weight outputNorm,
            Weight output,
            float[][] ropeFactors,
            List<Layer> layers,
            int vocabSize) {
        this.tokenEmbedding = tokenEmbedding;
        this.outputNorm = outputNorm;
        this.output = output;
        this.ropeFreqFactors = ropeFactors[0];
        this.ropeLongFactors = ropeFactors[1];
        this.ropeShortFactors = ropeFactors[2];
        this.layers = List.copyOf(layers);
        this.vocabSize = vocabSize;
    }

    /**
     * The weights of {@code f} on {@code be}, each tensor's shape checked against {@code c} before
     * it is uploaded. A refused tensor closes what was uploaded before it.
     *
     * @throws InvalidModelException for a tensor of the wrong shape, or fewer blocks than {@code block_count}
     * @throws com.llmserve.engine.gguf.GgufFormatException for a missing tensor
     */
    static DecoderWeights load(GgufFile f, DecoderConfig c, Backend be) {
        return load(f, c, be, ShardSplit.whole(f.path()));
    }

    /**
     * Shard {@code split.rank()}'s part of the weights ({@link ShardSplit}), with {@code c} the
     * whole model's configuration; only shard 0 gets the output norm and projection.
     */
    static DecoderWeights load(GgufFile f, DecoderConfig c, Backend be, ShardSplit split) {
        Uploads up = new Uploads(be);
        try {
            return load(f, c, up, split);
        } catch (RuntimeException | Error e) {
            // a bad tensor late in the file must not leak what the backend already made
            up.closeAll(e);
            throw e;
        }
    }

    private static DecoderWeights load(GgufFile f, DecoderConfig c, Uploads be, ShardSplit split) {
        TensorShapes s = new TensorShapes(f);
        int d = c.embedding();
        GgufTensor embd = f.tensor("token_embd.weight");
        long vocab = s.vocabularyTable(embd, d);
        // block_count sizes nothing before its last block is known to be in the file
        String lastBlock = "blk." + (c.layers() - 1) + ".";
        if (f.tensors().stream().noneMatch(t -> t.name().startsWith(lastBlock))) {
            throw new InvalidModelException(
                    f.path(), "block_count is " + c.layers() + ", but the file has no tensors " + lastBlock + "*");
        }
        Weight tokenEmbedding = be.uploadTable(embd);
        boolean logits = split.rank() == 0;
        // tied embeddings: the table is uploaded a second time as a matrix, which a backend may lay out differently
        Weight output =
                logits ? be.uploadMatrix(s.check(f.findTensor("output.weight").orElse(embd), d, vocab)) : null;
        Weight outputNorm = logits ? be.uploadVector(s.check(f.tensor("output_norm.weight"), d)) : null;
        float[][] ropeFactors = new float[3][];
        String[] factorTensors = {"rope_freqs.weight", "rope_factors_long.weight", "rope_factors_short.weight"};
        for (int i = 0; i < factorTensors.length; i++) {
            ropeFactors[i] = f.findTensor(factorTensors[i])
                    .map(t -> ropeFactors(f, s.check(t, c.ropeDims() / 2)))
                    .orElse(null);
        }
        if ((ropeFactors[1] == null) != (ropeFactors[2] == null)) {
            throw new InvalidModelException(f.path(), "rope_factors_long and rope_factors_short come together");
        }

        List<Layer> layers = new ArrayList<>();
        for (int l = 0; l < c.layers(); l++) {
            String p = "blk." + l + ".";
            // phi3 stores q|k|v fused already
            long qd = c.queryDim();
            long kvd = c.kvDim();
            List<GgufTensor> qkv = f.findTensor(p + "attn_qkv.weight")
                    .map(t -> {
                        GgufTensor fused = s.check(t, d, qd + 2 * kvd);
                        return split.isWhole()
                                ? List.of(fused)
                                : List.of(
                                        split.rows(fused, 0, qd),
                                        split.rows(fused, qd, kvd),
                                        split.rows(fused, qd + kvd, kvd));
                    })
                    .orElseGet(() -> List.of(
                            split.rows(s.check(f.tensor(p + "attn_q.weight"), d, qd), 0, qd),
                            split.rows(s.check(f.tensor(p + "attn_k.weight"), d, kvd), 0, kvd),
                            split.rows(s.check(f.tensor(p + "attn_v.weight"), d, kvd), 0, kvd)));
            Optional<GgufTensor> qBias = f.findTensor(p + "attn_q.bias");
            Weight bias = null;
            if (qBias.isPresent()) {
                bias = be.uploadVector(
                        p + "attn_qkv.bias",
                        List.of(
                                split.columns(s.check(qBias.get(), qd), 0, qd),
                                split.columns(s.check(f.tensor(p + "attn_k.bias"), kvd), 0, kvd),
                                split.columns(s.check(f.tensor(p + "attn_v.bias"), kvd), 0, kvd)));
            }
            if (f.findTensor(p + "attn_q_norm.weight").isPresent()
                    != f.findTensor(p + "attn_k_norm.weight").isPresent()) {
                // a step norms both or neither
                throw new InvalidModelException(
                        f.path(), p + "attn_q_norm.weight and " + p + "attn_k_norm.weight come together");
            }
            boolean moe = c.variant().experts() != null;
            String ffnNorm = c.variant().ffnNorm();
            boolean postAttnNorm = !ffnNorm.equals("post_attention_norm");
            layers.add(new Layer(
                    be.uploadVector(s.check(f.tensor(p + "attn_norm.weight"), d)),
                    be.uploadMatrix(p + "attn_qkv.weight", qkv),
                    bias,
                    optionalVector(f, s, be, p + "attn_q_norm.weight", c.headDim()),
                    optionalVector(f, s, be, p + "attn_k_norm.weight", c.headDim()),
                    be.uploadMatrix(split.columns(s.check(f.tensor(p + "attn_output.weight"), qd, d), 0, qd)),
                    optionalVector(f, s, be, p + "attn_output.bias", d),
                    f.findTensor(p + "attn_sinks.weight")
                            .map(t -> split.heads(floats(f, s.check(t, c.heads()))))
                            .orElse(null),
                    postAttnNorm ? optionalVector(f, s, be, p + "post_attention_norm.weight", d) : null,
                    be.uploadVector(s.check(f.tensor(p + ffnNorm + ".weight"), d)),
                    moe ? null : be.uploadMatrix(p + "ffn_gate_up.weight", gateUp(f, s, p, c, split)),
                    moe
                            ? null
                            : be.uploadMatrix(split.columns(
                                    s.check(f.tensor(p + "ffn_down.weight"), c.feedForward(), d), 0, c.feedForward())),
                    moe ? experts(f, s, be, p, c) : null,
                    optionalVector(f, s, be, p + "post_ffw_norm.weight", d)));
        }
        return new DecoderWeights(tokenEmbedding, outputNorm, output, ropeFactors, layers, (int) vocab);
    }

    /** The backend's uploads of one load, kept so that a refused tensor can close those before it. */
    private static final class Uploads {

        private final Backend be;
        private final List<Weight> made = new ArrayList<>();

        Uploads(Backend be) {
            this.be = be;
        }

        private Weight keep(Weight w) {
            made.add(w);
            return w;
        }

        Weight uploadTable(GgufTensor t) {
            return keep(be.uploadTable(t));
        }

        Weight uploadMatrix(GgufTensor t) {
            return keep(be.uploadMatrix(t));
        }

        Weight uploadMatrix(String name, List<GgufTensor> parts) {
            return keep(be.uploadMatrix(name, parts));
        }

        Weight uploadVector(GgufTensor t) {
            return keep(be.uploadVector(t));
        }

        Weight uploadVector(String name, List<GgufTensor> parts) {
            return keep(be.uploadVector(name, parts));
        }

        Weight uploadExperts(String name, List<GgufTensor> stacks) {
            return keep(be.uploadExperts(name, stacks));
        }

        void closeAll(Throwable cause) {
            for (Weight w : made) {
                try {
                    w.close();
                } catch (RuntimeException suppressed) {
                    cause.addSuppressed(suppressed);
                }
            }
        }
    }

    void close() {
        tokenEmbedding.close();
        if (output != null) {
            outputNorm.close();
            output.close();
        }
        for (Layer l : layers) {
            l.all().forEach(Weight::close);
        }
    }

    /** The gate and up projections, or phi3's {@code ffn_up} holding both (gate first) when there is no {@code ffn_gate}. */
    private static List<GgufTensor> gateUp(GgufFile f, TensorShapes s, String p, DecoderConfig c, ShardSplit split) {
        long d = c.embedding();
        long ff = c.feedForward();
        return f.findTensor(p + "ffn_gate.weight")
                .map(gate -> List.of(
                        split.rows(s.check(gate, d, ff), 0, ff),
                        split.rows(s.check(f.tensor(p + "ffn_up.weight"), d, ff), 0, ff)))
                .orElseGet(() -> {
                    GgufTensor up = s.check(f.tensor(p + "ffn_up.weight"), d, 2 * ff);
                    return split.isWhole() ? List.of(up) : List.of(split.rows(up, 0, ff), split.rows(up, ff, ff));
                });
    }

    private static Weight optionalVector(GgufFile f, TensorShapes s, Uploads be, String name, long length) {
        return f.findTensor(name).map(t -> be.uploadVector(s.check(t, length))).orElse(null);
    }

    /** A 2-D tensor of {@code rows} rows of {@code length} (gpt-oss's per-expert biases) uploaded as one vector. */
    private static Weight optionalMatrixVector(
            GgufFile f, TensorShapes s, Uploads be, String name, long length, long rows) {
        return f.findTensor(name)
                .map(t -> be.uploadVector(s.check(t, length, rows)))
                .orElse(null);
    }

    /** The stacked {@code ffn_*_exps} tensors: gate|up fused per expert, and down. */
    private static ExpertWeights experts(GgufFile f, TensorShapes s, Uploads be, String p, DecoderConfig c) {
        Experts e = c.variant().experts();
        long d = c.embedding();
        if (f.findTensor(p + "ffn_up_shexp.weight").isPresent()) {
            throw new InvalidModelException(f.path(), "shared experts (" + p + "ffn_*_shexp) are not supported");
        }
        GgufTensor gate = s.check(f.tensor(p + "ffn_gate_exps.weight"), d, e.feedForward(), e.count());
        GgufTensor up = s.check(f.tensor(p + "ffn_up_exps.weight"), d, e.feedForward(), e.count());
        GgufTensor down = s.check(f.tensor(p + "ffn_down_exps.weight"), e.feedForward(), d, e.count());
        return new ExpertWeights(
                be.uploadMatrix(s.check(f.tensor(p + "ffn_gate_inp.weight"), d, e.count())),
                be.uploadExperts(p + "ffn_gate_up_exps.weight", List.of(gate, up)),
                be.uploadExperts(down.name(), List.of(down)),
                optionalVector(f, s, be, p + "ffn_gate_inp.bias", e.count()),
                optionalMatrixVector(f, s, be, p + "ffn_gate_exps.bias", e.feedForward(), e.count()),
                optionalMatrixVector(f, s, be, p + "ffn_up_exps.bias", e.feedForward(), e.count()),
                optionalMatrixVector(f, s, be, p + "ffn_down_exps.bias", d, e.count()));
    }

    /** Llama 3.1's or Phi-3's per-frequency divisors: host-side constants of the rope, not a backend weight. */
    private static float[] ropeFactors(GgufFile f, GgufTensor t) {
        return floats(f, t);
    }

    /** An F32 tensor's values on the host (rope factors, attention sinks). */
    private static float[] floats(GgufFile f, GgufTensor t) {
        if (t.type() != GgmlType.F32) {
            throw new InvalidModelException(f.path(), t.name() + " is " + t.type() + ", expected F32");
        }
        return t.data().toArray(ValueLayout.JAVA_FLOAT.withOrder(ByteOrder.LITTLE_ENDIAN));
    }
}
