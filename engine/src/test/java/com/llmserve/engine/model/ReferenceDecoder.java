package com.llmserve.engine.model;

import com.llmserve.engine.backend.cpu.CpuTensor;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufTensor;
import java.util.Optional;

/**
 * A float64 llama-family forward pass written for clarity, not speed, as an independent oracle:
 * one sequence, no cache, weights dequantized with the scalar references. Variants are switches
 * here on purpose (it mirrors the papers, not our code's structure). The one rounding it imitates
 * is llama.cpp's F16 KV cache (keys, values, queries and attention weights rounded to half),
 * because the engine does the same and it moves logits by ~1e-3.
 */
final class ReferenceDecoder {

    private final GgufFile f;
    private final String arch;
    private final int embd;
    private final int layers;
    private final int heads;
    private final int kvHeads;
    private final int hd;
    private final double eps;
    private final double ropeBase;
    private final boolean neox;
    private final int window;

    ReferenceDecoder(GgufFile f, boolean neox) {
        this.f = f;
        var m = f.metadata();
        this.arch = m.getString("general.architecture");
        this.embd = m.getInt(arch + ".embedding_length");
        this.layers = m.getInt(arch + ".block_count");
        this.heads = m.getInt(arch + ".attention.head_count");
        this.kvHeads = m.findInt(arch + ".attention.head_count_kv").orElse(heads);
        this.hd = embd / heads;
        this.eps = m.getFloat(arch + ".attention.layer_norm_rms_epsilon");
        this.ropeBase = m.findFloat(arch + ".rope.freq_base").orElse(10000f);
        this.neox = neox;
        this.window = m.findInt(arch + ".attention.sliding_window").orElse(0);
    }

    /** Logits after each prefix of {@code tokens}. */
    double[][] logits(int[] tokens) {
        int n = tokens.length;
        double[][] x = new double[n][];
        double[][] emb = matrix("token_embd.weight");
        for (int t = 0; t < n; t++) {
            x[t] = emb[tokens[t]].clone();
        }
        for (int l = 0; l < layers; l++) {
            String p = "blk." + l + ".";
            double[][] q = new double[n][];
            double[][] k = new double[n][];
            double[][] v = new double[n][];
            for (int t = 0; t < n; t++) {
                double[] h = rmsNorm(x[t], vector(p + "attn_norm.weight"));
                q[t] = add(matvec(matrix(p + "attn_q.weight"), h), optionalVector(p + "attn_q.bias"));
                k[t] = add(matvec(matrix(p + "attn_k.weight"), h), optionalVector(p + "attn_k.bias"));
                v[t] = add(matvec(matrix(p + "attn_v.weight"), h), optionalVector(p + "attn_v.bias"));
                rope(q[t], heads, t);
                rope(k[t], kvHeads, t);
                toHalf(q[t]);
                toHalf(k[t]);
                toHalf(v[t]);
            }
            double[][] wo = matrix(p + "attn_output.weight");
            for (int t = 0; t < n; t++) {
                double[] att = new double[heads * hd];
                for (int h = 0; h < heads; h++) {
                    int kvh = h / (heads / kvHeads);
                    int first = window > 0 ? Math.max(0, t - window + 1) : 0;
                    double[] s = new double[t + 1];
                    double max = Double.NEGATIVE_INFINITY;
                    for (int u = first; u <= t; u++) {
                        double d = 0;
                        for (int i = 0; i < hd; i++) {
                            d += q[t][h * hd + i] * k[u][kvh * hd + i];
                        }
                        s[u] = d / Math.sqrt(hd);
                        max = Math.max(max, s[u]);
                    }
                    double sum = 0;
                    for (int u = first; u <= t; u++) {
                        s[u] = Math.exp(s[u] - max);
                        sum += s[u];
                    }
                    for (int u = first; u <= t; u++) {
                        double weight = half(s[u] / sum);
                        for (int i = 0; i < hd; i++) {
                            att[h * hd + i] += weight * v[u][kvh * hd + i];
                        }
                    }
                }
                x[t] = add(x[t], matvec(wo, att));
                double[] h = rmsNorm(x[t], vector(p + "ffn_norm.weight"));
                double[] g = matvec(matrix(p + "ffn_gate.weight"), h);
                double[] up = matvec(matrix(p + "ffn_up.weight"), h);
                for (int i = 0; i < g.length; i++) {
                    g[i] = g[i] / (1 + Math.exp(-g[i])) * up[i];
                }
                x[t] = add(x[t], matvec(matrix(p + "ffn_down.weight"), g));
            }
        }
        double[][] out = f.findTensor("output.weight").isPresent() ? matrix("output.weight") : emb;
        double[][] logits = new double[n][];
        for (int t = 0; t < n; t++) {
            logits[t] = matvec(out, rmsNorm(x[t], vector("output_norm.weight")));
        }
        return logits;
    }

    private static double half(double v) {
        return Float.float16ToFloat(Float.floatToFloat16((float) v));
    }

    private static void toHalf(double[] v) {
        for (int i = 0; i < v.length; i++) {
            v[i] = half(v[i]);
        }
    }

    private void rope(double[] v, int nHeads, int pos) {
        for (int h = 0; h < nHeads; h++) {
            for (int i = 0; i < hd / 2; i++) {
                double theta = pos * Math.pow(ropeBase, -2.0 * i / hd);
                int a = neox ? h * hd + i : h * hd + 2 * i;
                int b = neox ? a + hd / 2 : a + 1;
                double x0 = v[a];
                double x1 = v[b];
                v[a] = x0 * Math.cos(theta) - x1 * Math.sin(theta);
                v[b] = x0 * Math.sin(theta) + x1 * Math.cos(theta);
            }
        }
    }

    private double[] rmsNorm(double[] x, double[] w) {
        double ss = 0;
        for (double v : x) {
            ss += v * v;
        }
        double inv = 1 / Math.sqrt(ss / x.length + eps);
        double[] out = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = x[i] * inv * w[i];
        }
        return out;
    }

    private static double[] matvec(double[][] w, double[] x) {
        double[] y = new double[w.length];
        for (int r = 0; r < w.length; r++) {
            double s = 0;
            for (int c = 0; c < x.length; c++) {
                s += w[r][c] * x[c];
            }
            y[r] = s;
        }
        return y;
    }

    private static double[] add(double[] a, double[] b) {
        if (b == null) {
            return a;
        }
        double[] out = a.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] += b[i];
        }
        return out;
    }

    private double[][] matrix(String name) {
        GgufTensor t = f.tensor(name);
        CpuTensor c = CpuTensor.of(t);
        float[] row = new float[c.cols()];
        double[][] out = new double[(int) c.rows()][c.cols()];
        for (int r = 0; r < out.length; r++) {
            c.dequantizeRowScalar(r, row, 0);
            for (int i = 0; i < row.length; i++) {
                out[r][i] = row[i];
            }
        }
        return out;
    }

    private double[] vector(String name) {
        return optionalVector(name);
    }

    private double[] optionalVector(String name) {
        Optional<GgufTensor> t = f.findTensor(name);
        if (t.isEmpty()) {
            return null;
        }
        CpuTensor c = CpuTensor.of(
                t.get().name(), t.get().type(), t.get().data(), 1, (int) t.get().elementCount());
        float[] row = new float[c.cols()];
        c.dequantizeRowScalar(0, row, 0);
        double[] out = new double[row.length];
        for (int i = 0; i < row.length; i++) {
            out[i] = row[i];
        }
        return out;
    }
}
