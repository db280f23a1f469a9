package com.llmserve.engine.model.bert;

import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufBuilder;
import com.llmserve.engine.gguf.GgufValueType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

/** Writes small BERT GGUF files with random F32 weights, laid out as llama.cpp's converter lays them out. */
final class SyntheticBert {

    /**
     * @param poolingId {@code bert.pooling_type}, or -1 to leave the key out
     * @param reshaped  tensors to write with another shape (ggml order), to test the loader's checks
     */
    record Spec(
            int embd,
            int layers,
            int ff,
            int heads,
            int kvHeads,
            int vocab,
            int context,
            int poolingId,
            boolean causal,
            Map<String, long[]> reshaped,
            long seed) {

        static Spec small() {
            return new Spec(32, 2, 64, 4, 4, 50, 16, 1, false, Map.of(), 7);
        }

        Spec pooling(int id) {
            return new Spec(embd, layers, ff, heads, kvHeads, vocab, context, id, causal, reshaped, seed);
        }

        Spec kvHeads(int n) {
            return new Spec(embd, layers, ff, heads, n, vocab, context, poolingId, causal, reshaped, seed);
        }

        Spec asCausal() {
            return new Spec(embd, layers, ff, heads, kvHeads, vocab, context, poolingId, true, reshaped, seed);
        }

        Spec reshape(String tensor, long... shape) {
            return new Spec(
                    embd, layers, ff, heads, kvHeads, vocab, context, poolingId, causal, Map.of(tensor, shape), seed);
        }
    }

    private SyntheticBert() {}

    static Path write(Path dir, String file, Spec s) throws IOException {
        Random r = new Random(s.seed());
        int kvDim = s.embd() / s.heads() * s.kvHeads();
        GgufBuilder b = new GgufBuilder()
                .kvString("general.architecture", "bert")
                .kvU32("bert.context_length", s.context())
                .kvU32("bert.embedding_length", s.embd())
                .kvU32("bert.feed_forward_length", s.ff())
                .kvU32("bert.block_count", s.layers())
                .kvU32("bert.attention.head_count", s.heads())
                .kvU32("bert.attention.head_count_kv", s.kvHeads())
                .kvF32("bert.attention.layer_norm_epsilon", 1e-12f)
                .kv(
                        "bert.attention.causal",
                        GgufValueType.BOOL,
                        GgufBuilder.le(1).put((byte) (s.causal() ? 1 : 0)));
        if (s.poolingId() >= 0) {
            b.kvU32("bert.pooling_type", s.poolingId());
        }
        W w = new W(b, s.reshaped(), r);
        w.matrix("token_embd.weight", s.embd(), s.vocab(), 1.0);
        w.matrix("position_embd.weight", s.embd(), s.context(), 0.5);
        w.matrix("token_types.weight", s.embd(), 2, 0.5);
        w.norm("token_embd_norm", s.embd());
        for (int l = 0; l < s.layers(); l++) {
            String p = "blk." + l + ".";
            w.linear(p + "attn_q", s.embd(), s.embd(), 0.4);
            w.linear(p + "attn_k", s.embd(), kvDim, 0.4);
            w.linear(p + "attn_v", s.embd(), kvDim, 0.3);
            w.linear(p + "attn_output", s.embd(), s.embd(), 0.2);
            w.norm(p + "attn_output_norm", s.embd());
            w.linear(p + "ffn_up", s.embd(), s.ff(), 0.3);
            w.linear(p + "ffn_down", s.ff(), s.embd(), 0.2);
            w.norm(p + "layer_output_norm", s.embd());
        }
        return b.writeTo(dir, file);
    }

    private record W(GgufBuilder b, Map<String, long[]> reshaped, Random r) {

        void matrix(String name, int cols, int rows, double scale) {
            tensor(name, new long[] {cols, rows}, 0, scale);
        }

        /** A projection of {@code in} to {@code out} features and its bias. */
        void linear(String name, int in, int out, double scale) {
            matrix(name + ".weight", in, out, scale);
            tensor(name + ".bias", new long[] {out}, 0, 0.3);
        }

        void norm(String name, int n) {
            tensor(name + ".weight", new long[] {n}, 1, 0.2);
            tensor(name + ".bias", new long[] {n}, 0, 0.2);
        }

        private void tensor(String name, long[] shape, double center, double scale) {
            long[] actual = reshaped.getOrDefault(name, shape);
            long n = 1;
            for (long d : actual) {
                n *= d;
            }
            ByteBuffer buf = ByteBuffer.allocate(4 * (int) n).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < n; i++) {
                buf.putFloat((float) (center + r.nextGaussian() * scale));
            }
            b.tensor(name, GgmlType.F32, actual, buf.array());
        }
    }
}
