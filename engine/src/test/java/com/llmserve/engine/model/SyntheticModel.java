package com.llmserve.engine.model;

import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Random;

/** Writes small llama-family GGUF files with random F32 weights, to exercise each architecture's variant. */
final class SyntheticModel {

    record Spec(
            String arch,
            int embd,
            int layers,
            int ff,
            int heads,
            int kvHeads,
            int vocab,
            float ropeBase,
            boolean qkvBias,
            boolean tied,
            int slidingWindow,
            int experts,
            int expertsUsed,
            long seed) {

        static Spec llama() {
            return new Spec("llama", 64, 2, 96, 4, 2, 80, 10000f, false, false, 0, 0, 0, 1);
        }

        Spec arch(String a) {
            return new Spec(
                    a,
                    embd,
                    layers,
                    ff,
                    heads,
                    kvHeads,
                    vocab,
                    ropeBase,
                    qkvBias,
                    tied,
                    slidingWindow,
                    experts,
                    expertsUsed,
                    seed);
        }

        Spec withBias() {
            return new Spec(
                    arch,
                    embd,
                    layers,
                    ff,
                    heads,
                    kvHeads,
                    vocab,
                    ropeBase,
                    true,
                    tied,
                    slidingWindow,
                    experts,
                    expertsUsed,
                    seed);
        }

        Spec tiedEmbeddings() {
            return new Spec(
                    arch,
                    embd,
                    layers,
                    ff,
                    heads,
                    kvHeads,
                    vocab,
                    ropeBase,
                    qkvBias,
                    true,
                    slidingWindow,
                    experts,
                    expertsUsed,
                    seed);
        }

        /**
         * A mixture of {@code count} experts, {@code used} per token, each a copy of the dense
         * feed-forward this spec would have (same seed): whatever the router chooses, the weighted
         * sum of copies equals the dense model's output.
         */
        Spec copiedExperts(int count, int used) {
            return new Spec(
                    arch,
                    embd,
                    layers,
                    ff,
                    heads,
                    kvHeads,
                    vocab,
                    ropeBase,
                    qkvBias,
                    tied,
                    slidingWindow,
                    count,
                    used,
                    seed);
        }

        Spec window(int w) {
            return new Spec(
                    arch,
                    embd,
                    layers,
                    ff,
                    heads,
                    kvHeads,
                    vocab,
                    ropeBase,
                    qkvBias,
                    tied,
                    w,
                    experts,
                    expertsUsed,
                    seed);
        }
    }

    private SyntheticModel() {}

    static Path write(Path dir, String file, Spec s) throws IOException {
        Random r = new Random(s.seed());
        int hd = s.embd() / s.heads();
        int kvDim = hd * s.kvHeads();
        String a = s.arch();
        GgufBuilder b = new GgufBuilder()
                .kvString("general.architecture", a)
                .kvU32(a + ".embedding_length", s.embd())
                .kvU32(a + ".block_count", s.layers())
                .kvU32(a + ".feed_forward_length", s.ff())
                .kvU32(a + ".attention.head_count", s.heads())
                .kvU32(a + ".attention.head_count_kv", s.kvHeads())
                .kvF32(a + ".attention.layer_norm_rms_epsilon", 1e-5f)
                .kvF32(a + ".rope.freq_base", s.ropeBase())
                .kvU32(a + ".context_length", 256);
        if (s.slidingWindow() > 0) {
            b.kvU32(a + ".attention.sliding_window", s.slidingWindow());
        }
        Random router = new Random(s.seed() + 1); // apart from r, so the other weights equal the dense spec's
        if (s.experts() > 0) {
            b.kvU32(a + ".expert_count", s.experts()).kvU32(a + ".expert_used_count", s.expertsUsed());
        }
        matrix(b, "token_embd.weight", s.embd(), s.vocab(), r, 1.0);
        for (int l = 0; l < s.layers(); l++) {
            String p = "blk." + l + ".";
            vector(b, p + "attn_norm.weight", s.embd(), r, 1.0);
            matrix(b, p + "attn_q.weight", s.embd(), s.embd(), r, 0.3);
            matrix(b, p + "attn_k.weight", s.embd(), kvDim, r, 0.3);
            matrix(b, p + "attn_v.weight", s.embd(), kvDim, r, 0.3);
            if (s.qkvBias()) {
                vector(b, p + "attn_q.bias", s.embd(), r, 0.0);
                vector(b, p + "attn_k.bias", kvDim, r, 0.0);
                vector(b, p + "attn_v.bias", kvDim, r, 0.0);
            }
            matrix(b, p + "attn_output.weight", s.embd(), s.embd(), r, 0.2);
            vector(b, p + "ffn_norm.weight", s.embd(), r, 1.0);
            if (s.experts() > 0) {
                byte[] gate = floats(s.embd() * s.ff(), r, 0, 0.2);
                byte[] up = floats(s.embd() * s.ff(), r, 0, 0.2);
                byte[] down = floats(s.ff() * s.embd(), r, 0, 0.2);
                b.tensor(
                        p + "ffn_gate_inp.weight",
                        GgmlType.F32,
                        new long[] {s.embd(), s.experts()},
                        floats(s.embd() * s.experts(), router, 0, 1.0));
                b.tensor(
                        p + "ffn_gate_exps.weight",
                        GgmlType.F32,
                        new long[] {s.embd(), s.ff(), s.experts()},
                        copies(gate, s.experts()));
                b.tensor(
                        p + "ffn_up_exps.weight",
                        GgmlType.F32,
                        new long[] {s.embd(), s.ff(), s.experts()},
                        copies(up, s.experts()));
                b.tensor(
                        p + "ffn_down_exps.weight",
                        GgmlType.F32,
                        new long[] {s.ff(), s.embd(), s.experts()},
                        copies(down, s.experts()));
            } else {
                matrix(b, p + "ffn_gate.weight", s.embd(), s.ff(), r, 0.2);
                matrix(b, p + "ffn_up.weight", s.embd(), s.ff(), r, 0.2);
                matrix(b, p + "ffn_down.weight", s.ff(), s.embd(), r, 0.2);
            }
        }
        vector(b, "output_norm.weight", s.embd(), r, 1.0);
        if (!s.tied()) {
            matrix(b, "output.weight", s.embd(), s.vocab(), r, 0.3);
        }
        return b.writeTo(dir, file);
    }

    private static void matrix(GgufBuilder b, String name, int cols, int rows, Random r, double scale) {
        b.tensor(name, GgmlType.F32, new long[] {cols, rows}, floats(cols * rows, r, 0, scale));
    }

    /** Norm weights around {@code center}, biases (center 0) around zero. */
    private static void vector(GgufBuilder b, String name, int n, Random r, double center) {
        b.tensor(name, GgmlType.F32, new long[] {n}, floats(n, r, center, center == 0 ? 0.5 : 0.2));
    }

    private static byte[] copies(byte[] one, int n) {
        byte[] all = new byte[one.length * n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(one, 0, all, i * one.length, one.length);
        }
        return all;
    }

    private static byte[] floats(int n, Random r, double center, double scale) {
        ByteBuffer buf = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            buf.putFloat((float) (center + r.nextGaussian() * scale));
        }
        return buf.array();
    }
}
