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
import java.util.List;
import java.util.Optional;

/**
 * A decoder's weights on a backend, checked against the configuration. Projections that read the
 * same input are fused (q|k|v, gate|up) so each runs as one matrix multiplication.
 */
final class DecoderWeights {

    record Layer(
            Weight attnNorm,
            Weight qkv,
            Weight qkvBias,
            Weight attnOutput,
            Weight ffnNorm,
            Weight gateUp,
            Weight down) {}

    final Weight tokenEmbedding;
    final Weight outputNorm;
    /** The output projection; the token embedding itself when the file ties them. */
    final Weight output;

    final float[] ropeFreqFactors;
    final List<Layer> layers;
    final int vocabSize;

    private DecoderWeights(
            Weight tokenEmbedding, Weight outputNorm, Weight output, float[] ropeFreqFactors, List<Layer> layers) {
        this.tokenEmbedding = tokenEmbedding;
        this.outputNorm = outputNorm;
        this.output = output;
        this.ropeFreqFactors = ropeFreqFactors;
        this.layers = List.copyOf(layers);
        this.vocabSize = (int) output.rows();
    }

    static DecoderWeights load(GgufFile f, DecoderConfig c, Backend be) {
        TensorShapes s = new TensorShapes(f);
        int d = c.embedding();
        GgufTensor embd = f.tensor("token_embd.weight");
        long vocab = s.vocabularyTable(embd, d);
        Weight tokenEmbedding = be.uploadTable(embd);
        // tied embeddings: the table is uploaded a second time as a matrix, which a backend may lay out differently
        Weight output = be.uploadMatrix(s.check(f.findTensor("output.weight").orElse(embd), d, vocab));
        Weight outputNorm = be.uploadVector(s.check(f.tensor("output_norm.weight"), d));
        float[] freqFactors = f.findTensor("rope_freqs.weight")
                .map(t -> ropeFactors(f, s.check(t, c.ropeDims() / 2)))
                .orElse(null);

        List<Layer> layers = new ArrayList<>(c.layers());
        for (int l = 0; l < c.layers(); l++) {
            String p = "blk." + l + ".";
            GgufTensor q = s.check(f.tensor(p + "attn_q.weight"), d, c.queryDim());
            GgufTensor k = s.check(f.tensor(p + "attn_k.weight"), d, c.kvDim());
            GgufTensor v = s.check(f.tensor(p + "attn_v.weight"), d, c.kvDim());
            Optional<GgufTensor> qBias = f.findTensor(p + "attn_q.bias");
            Weight bias = null;
            if (qBias.isPresent()) {
                bias = be.uploadVector(
                        p + "attn_qkv.bias",
                        List.of(
                                s.check(qBias.get(), c.queryDim()),
                                s.check(f.tensor(p + "attn_k.bias"), c.kvDim()),
                                s.check(f.tensor(p + "attn_v.bias"), c.kvDim())));
            }
            layers.add(new Layer(
                    be.uploadVector(s.check(f.tensor(p + "attn_norm.weight"), d)),
                    be.uploadMatrix(p + "attn_qkv.weight", List.of(q, k, v)),
                    bias,
                    be.uploadMatrix(s.check(f.tensor(p + "attn_output.weight"), c.queryDim(), d)),
                    be.uploadVector(s.check(f.tensor(p + "ffn_norm.weight"), d)),
                    be.uploadMatrix(
                            p + "ffn_gate_up.weight",
                            List.of(
                                    s.check(f.tensor(p + "ffn_gate.weight"), d, c.feedForward()),
                                    s.check(f.tensor(p + "ffn_up.weight"), d, c.feedForward()))),
                    be.uploadMatrix(s.check(f.tensor(p + "ffn_down.weight"), c.feedForward(), d))));
        }
        return new DecoderWeights(tokenEmbedding, outputNorm, output, freqFactors, layers);
    }

    void close() {
        tokenEmbedding.close();
        outputNorm.close();
        output.close();
        for (Layer l : layers) {
            for (Weight w :
                    new Weight[] {l.attnNorm(), l.qkv(), l.qkvBias(), l.attnOutput(), l.ffnNorm(), l.gateUp(), l.down()
                    }) {
                if (w != null) {
                    w.close();
                }
            }
        }
    }

    /** Llama 3.1's per-frequency divisors: host-side constants of the rope, not a backend weight. */
    private static float[] ropeFactors(GgufFile f, GgufTensor t) {
        if (t.type() != GgmlType.F32) {
            throw new InvalidModelException(f.path(), "rope_freqs.weight is " + t.type() + ", expected F32");
        }
        return t.data().toArray(ValueLayout.JAVA_FLOAT.withOrder(ByteOrder.LITTLE_ENDIAN));
    }
}
