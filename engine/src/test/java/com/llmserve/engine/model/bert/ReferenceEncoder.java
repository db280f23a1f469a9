package com.llmserve.engine.model.bert;

import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufTensor;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A plain float64 BERT forward pass over one input at a time, written from the model's definition
 * (not from the engine's code), as the oracle for files with F32 weights: embeddings, post-norm
 * layers, GELU in its exact tanh form, pooling, L2 normalisation.
 */
final class ReferenceEncoder {

    private final GgufFile f;
    private final int d;
    private final int heads;
    private final int kvHeads;
    private final int layers;
    private final double eps;
    private final int pooling;

    ReferenceEncoder(GgufFile f) {
        this.f = f;
        var m = f.metadata();
        this.d = m.getInt("bert.embedding_length");
        this.heads = m.getInt("bert.attention.head_count");
        this.kvHeads = m.findInt("bert.attention.head_count_kv").orElse(heads);
        this.layers = m.getInt("bert.block_count");
        this.eps = m.getFloat("bert.attention.layer_norm_epsilon");
        this.pooling = m.getInt("bert.pooling_type");
    }

    double[] embed(int[] tokens) {
        int n = tokens.length;
        double[] tok = weights("token_embd.weight");
        double[] pos = weights("position_embd.weight");
        double[] type = weights("token_types.weight");
        double[][] x = new double[n][d];
        for (int t = 0; t < n; t++) {
            for (int i = 0; i < d; i++) {
                x[t][i] = tok[tokens[t] * d + i] + type[i] + pos[t * d + i];
            }
        }
        x = layerNorm(x, "token_embd_norm");
        int hd = d / heads;
        for (int l = 0; l < layers; l++) {
            String p = "blk." + l + ".";
            double[][] q = linear(x, p + "attn_q");
            double[][] k = linear(x, p + "attn_k");
            double[][] v = linear(x, p + "attn_v");
            double[][] att = new double[n][d];
            for (int h = 0; h < heads; h++) {
                int kv = h / (heads / kvHeads);
                for (int t = 0; t < n; t++) {
                    double[] w = new double[n];
                    double max = Double.NEGATIVE_INFINITY;
                    for (int j = 0; j < n; j++) {
                        for (int i = 0; i < hd; i++) {
                            w[j] += q[t][h * hd + i] * k[j][kv * hd + i];
                        }
                        w[j] /= Math.sqrt(hd);
                        max = Math.max(max, w[j]);
                    }
                    double sum = 0;
                    for (int j = 0; j < n; j++) {
                        w[j] = Math.exp(w[j] - max);
                        sum += w[j];
                    }
                    for (int j = 0; j < n; j++) {
                        for (int i = 0; i < hd; i++) {
                            att[t][h * hd + i] += w[j] / sum * v[j][kv * hd + i];
                        }
                    }
                }
            }
            double[][] h1 = layerNorm(add(linear(att, p + "attn_output"), x), p + "attn_output_norm");
            double[][] up = linear(h1, p + "ffn_up");
            for (double[] row : up) {
                for (int i = 0; i < row.length; i++) {
                    double u = row[i];
                    row[i] = 0.5 * u * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (u + 0.044715 * u * u * u)));
                }
            }
            x = layerNorm(add(linear(up, p + "ffn_down"), h1), p + "layer_output_norm");
        }
        double[] pooled = new double[d];
        for (int i = 0; i < d; i++) {
            pooled[i] = switch (pooling) {
                case 1 -> {
                    double s = 0;
                    for (double[] row : x) {
                        s += row[i];
                    }
                    yield s / n;
                }
                case 2 -> x[0][i];
                case 3 -> x[n - 1][i];
                default -> throw new IllegalStateException("pooling " + pooling);
            };
        }
        double norm = Math.sqrt(java.util.Arrays.stream(pooled).map(a -> a * a).sum());
        return java.util.Arrays.stream(pooled).map(a -> a / norm).toArray();
    }

    private double[][] linear(double[][] x, String name) {
        GgufTensor t = f.tensor(name + ".weight");
        int in = (int) t.dim(0);
        int out = (int) t.dim(1);
        double[] w = weights(name + ".weight");
        double[] b = weights(name + ".bias");
        double[][] y = new double[x.length][out];
        for (int r = 0; r < x.length; r++) {
            for (int o = 0; o < out; o++) {
                double s = b[o];
                for (int i = 0; i < in; i++) {
                    s += w[o * in + i] * x[r][i];
                }
                y[r][o] = s;
            }
        }
        return y;
    }

    private double[][] layerNorm(double[][] x, String name) {
        double[] w = weights(name + ".weight");
        double[] b = weights(name + ".bias");
        double[][] y = new double[x.length][];
        for (int r = 0; r < x.length; r++) {
            double mean = java.util.Arrays.stream(x[r]).average().orElseThrow();
            double var = java.util.Arrays.stream(x[r])
                    .map(a -> (a - mean) * (a - mean))
                    .average()
                    .orElseThrow();
            y[r] = new double[x[r].length];
            for (int i = 0; i < x[r].length; i++) {
                y[r][i] = (x[r][i] - mean) / Math.sqrt(var + eps) * w[i] + b[i];
            }
        }
        return y;
    }

    private static double[][] add(double[][] a, double[][] b) {
        double[][] y = new double[a.length][];
        for (int r = 0; r < a.length; r++) {
            y[r] = new double[a[r].length];
            for (int i = 0; i < a[r].length; i++) {
                y[r][i] = a[r][i] + b[r][i];
            }
        }
        return y;
    }

    private double[] weights(String name) {
        GgufTensor t = f.tensor(name);
        if (t.type() != GgmlType.F32) {
            throw new IllegalArgumentException("the reference reads F32 files only: " + t);
        }
        float[] v = t.data().toArray(ValueLayout.JAVA_FLOAT.withOrder(ByteOrder.LITTLE_ENDIAN));
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i];
        }
        return out;
    }
}
