package com.llmserve.engine.model.bert;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufTensor;
import com.llmserve.engine.model.InvalidModelException;
import com.llmserve.engine.model.TensorShapes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A BERT encoder's weights on a backend, checked against the configuration. The q, k and v
 * projections read the same input, so they are fused into one matrix (and their biases into one
 * vector) that runs as one matrix multiplication.
 */
final class BertWeights {

    /** A LayerNorm's scale and shift. */
    record Norm(Weight weight, Weight bias) {}

    record Layer(
            Weight qkv,
            Weight qkvBias,
            Weight attnOutput,
            Weight attnOutputBias,
            Norm attnOutputNorm,
            Weight up,
            Weight upBias,
            Weight down,
            Weight downBias,
            Norm layerOutputNorm) {

        List<Weight> all() {
            return List.of(
                    qkv,
                    qkvBias,
                    attnOutput,
                    attnOutputBias,
                    attnOutputNorm.weight(),
                    attnOutputNorm.bias(),
                    up,
                    upBias,
                    down,
                    downBias,
                    layerOutputNorm.weight(),
                    layerOutputNorm.bias());
        }
    }

    final Weight tokenEmbedding;
    final Weight positionEmbedding;
    /** Row 0 of {@code token_types}: every token is of type 0 ("sentence A"), as llama.cpp feeds BERT. */
    final Weight tokenType0;

    final Norm embeddingNorm;
    final List<Layer> layers;
    final int vocabSize;

    private BertWeights(
            Weight tokenEmbedding,
            Weight positionEmbedding,
            Weight tokenType0,
            Norm embeddingNorm,
            List<Layer> layers) {
        this.tokenEmbedding = tokenEmbedding;
        this.positionEmbedding = positionEmbedding;
        this.tokenType0 = tokenType0;
        this.embeddingNorm = embeddingNorm;
        this.layers = List.copyOf(layers);
        this.vocabSize = (int) tokenEmbedding.rows();
    }

    static BertWeights load(GgufFile f, BertConfig c, Backend be) {
        TensorShapes s = new TensorShapes(f);
        int d = c.embedding();
        GgufTensor embd = f.tensor("token_embd.weight");
        s.vocabularyTable(embd, d);
        GgufTensor positions = f.tensor("position_embd.weight");
        if (positions.dims() != 2 || positions.dim(0) != d || positions.dim(1) < c.contextLength()) {
            throw new InvalidModelException(
                    f.path(),
                    "tensor 'position_embd.weight' has shape " + Arrays.toString(positions.shape()) + ", expected [" + d
                            + ", at least the context length " + c.contextLength() + "]");
        }
        GgufTensor types = f.tensor("token_types.weight");
        if (types.dims() != 2 || types.dim(0) != d || types.dim(1) < 1) {
            throw new InvalidModelException(
                    f.path(),
                    "tensor 'token_types.weight' has shape " + Arrays.toString(types.shape()) + ", expected [" + d
                            + ", types]");
        }
        GgufTensor type0 = new GgufTensor(
                types.name(),
                types.type(),
                new long[] {d},
                types.offset(),
                types.data().asSlice(0, types.rowBytes()));

        List<Weight> loaded = new ArrayList<>();
        try {
            Weight tokenEmbedding = keep(loaded, be.uploadTable(embd));
            Weight positionEmbedding = keep(loaded, be.uploadTable(positions));
            Weight tokenType0 = keep(loaded, be.uploadVector("token_types.weight[0]", List.of(type0)));
            Norm embeddingNorm = norm(loaded, be, s, "token_embd_norm", d);
            // block_count sizes nothing before its last block is known to be in the file
            String lastBlock = "blk." + (c.layers() - 1) + ".";
            if (f.tensors().stream().noneMatch(t -> t.name().startsWith(lastBlock))) {
                throw new InvalidModelException(
                        f.path(), "block_count is " + c.layers() + ", but the file has no tensors " + lastBlock + "*");
            }
            List<Layer> layers = new ArrayList<>();
            for (int l = 0; l < c.layers(); l++) {
                String p = "blk." + l + ".";
                layers.add(new Layer(
                        keep(
                                loaded,
                                be.uploadMatrix(
                                        p + "attn_qkv.weight",
                                        List.of(
                                                s.check(f.tensor(p + "attn_q.weight"), d, c.queryDim()),
                                                s.check(f.tensor(p + "attn_k.weight"), d, c.kvDim()),
                                                s.check(f.tensor(p + "attn_v.weight"), d, c.kvDim())))),
                        keep(
                                loaded,
                                be.uploadVector(
                                        p + "attn_qkv.bias",
                                        List.of(
                                                s.check(f.tensor(p + "attn_q.bias"), c.queryDim()),
                                                s.check(f.tensor(p + "attn_k.bias"), c.kvDim()),
                                                s.check(f.tensor(p + "attn_v.bias"), c.kvDim())))),
                        keep(loaded, be.uploadMatrix(s.check(f.tensor(p + "attn_output.weight"), c.queryDim(), d))),
                        keep(loaded, be.uploadVector(s.check(f.tensor(p + "attn_output.bias"), d))),
                        norm(loaded, be, s, p + "attn_output_norm", d),
                        keep(loaded, be.uploadMatrix(s.check(f.tensor(p + "ffn_up.weight"), d, c.feedForward()))),
                        keep(loaded, be.uploadVector(s.check(f.tensor(p + "ffn_up.bias"), c.feedForward()))),
                        keep(loaded, be.uploadMatrix(s.check(f.tensor(p + "ffn_down.weight"), c.feedForward(), d))),
                        keep(loaded, be.uploadVector(s.check(f.tensor(p + "ffn_down.bias"), d))),
                        norm(loaded, be, s, p + "layer_output_norm", d)));
            }
            return new BertWeights(tokenEmbedding, positionEmbedding, tokenType0, embeddingNorm, layers);
        } catch (RuntimeException e) {
            // a bad tensor late in the file must not leak what the backend already made
            loaded.forEach(Weight::close);
            throw e;
        }
    }

    void close() {
        tokenEmbedding.close();
        positionEmbedding.close();
        tokenType0.close();
        embeddingNorm.weight().close();
        embeddingNorm.bias().close();
        for (Layer l : layers) {
            l.all().forEach(Weight::close);
        }
    }

    private static Norm norm(List<Weight> loaded, Backend be, TensorShapes s, String name, int d) {
        GgufFile f = s.f();
        return new Norm(
                keep(loaded, be.uploadVector(s.check(f.tensor(name + ".weight"), d))),
                keep(loaded, be.uploadVector(s.check(f.tensor(name + ".bias"), d))));
    }

    private static Weight keep(List<Weight> loaded, Weight w) {
        loaded.add(w);
        return w;
    }
}
