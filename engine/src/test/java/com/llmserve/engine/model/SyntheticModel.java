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
            long seed) {

        static Spec llama() {
            return new Spec("llama", 64, 2, 96, 4, 2, 80, 10000f, false, false, 0, 1);
        }

        Spec arch(String a) {
            return new Spec(a, embd, layers, ff, heads, kvHeads, vocab, ropeBase, qkvBias, tied, slidingWindow, seed);
        }

        Spec withBias() {
            return new Spec(arch, embd, layers, ff, heads, kvHeads, vocab, ropeBase, true, tied, slidingWindow, seed);
        }

        Spec tiedEmbeddings() {
            return new Spec(
                    arch, embd, layers, ff, heads, kvHeads, vocab, ropeBase, qkvBias, true, slidingWindow, seed);
        }

        Spec window(int w) {
            return new Spec(arch, embd, layers, ff, heads, kvHeads, vocab, ropeBase, qkvBias, tied, w, seed);
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
            matrix(b, p + "ffn_gate.weight", s.embd(), s.ff(), r, 0.2);
            matrix(b, p + "ffn_up.weight", s.embd(), s.ff(), r, 0.2);
            matrix(b, p + "ffn_down.weight", s.ff(), s.embd(), r, 0.2);
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

    private static byte[] floats(int n, Random r, double center, double scale) {
        ByteBuffer buf = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            buf.putFloat((float) (center + r.nextGaussian() * scale));
        }
        return buf.array();
    }
}
