package com.llmserve.engine.tokenizer;

import com.llmserve.engine.tokenizer.SpecialTokenSplitter.Fragment;
import com.llmserve.engine.tokenizer.SpecialTokenSplitter.Text;
import com.llmserve.engine.tokenizer.SpecialTokenSplitter.Token;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * SentencePiece BPE as llama.cpp runs it for {@code llama} vocabularies
 * ({@code llm_tokenizer_spm_session}): spaces become U+2581, a space is prefixed to text at the
 * start and after each special token, then adjacent symbols are merged greedily, highest-scoring
 * vocabulary entry first (leftmost on ties), and characters that end up in no token fall back to
 * their UTF-8 bytes as {@code <0xXX>} tokens.
 */
final class SentencePieceEncoder implements Encoder {

    private final Vocabulary vocab;

    SentencePieceEncoder(Vocabulary vocab) {
        this.vocab = vocab;
    }

    @Override
    public void encode(List<Fragment> fragments, boolean addSpecial, IntList out) {
        boolean afterSpecial = true; // the start counts as "after a special token"
        if (addSpecial && vocab.addBos) {
            out.add(vocab.bos);
        }
        Session session = new Session();
        for (Fragment fragment : fragments) {
            switch (fragment) {
                case Text(String text) -> {
                    String t = vocab.addSpacePrefix && afterSpecial ? " " + text : text;
                    session.encode(t.replace(' ', '\u2581'), out);
                    afterSpecial = false;
                }
                case Token(int id) -> {
                    out.add(id);
                    afterSpecial = true;
                }
            }
        }
        if (addSpecial && vocab.addEos) {
            out.add(vocab.eos);
        }
    }

    /** Scratch state for one text, reused across fragments. */
    private final class Session {
        private final MergeQueue queue = new MergeQueue();
        private int[] start = new int[64];
        private int[] length = new int[64];
        private int[] prev = new int[64];
        private int[] next = new int[64];
        private String text;

        void encode(String t, IntList out) {
            text = t;
            int n = t.codePointCount(0, t.length());
            if (start.length < n) {
                start = new int[n];
                length = new int[n];
                prev = new int[n];
                next = new int[n];
            }
            // One symbol per code point (llama.cpp: per UTF-8 character).
            for (int i = 0, offset = 0; i < n; i++) {
                int chars = Character.charCount(t.codePointAt(offset));
                start[i] = offset;
                length[i] = chars;
                prev[i] = i - 1;
                next[i] = i + 1 < n ? i + 1 : -1;
                offset += chars;
            }
            queue.clear();
            for (int i = 1; i < n; i++) {
                tryAddBigram(i - 1, i);
            }
            while (!queue.isEmpty()) {
                queue.pop();
                int l = queue.poppedLeft;
                int r = queue.poppedA;
                int size = queue.poppedB;
                // Skip a candidate whose symbols have changed since it was queued.
                if (length[l] == 0 || length[r] == 0 || length[l] + length[r] != size) {
                    continue;
                }
                length[l] += length[r];
                length[r] = 0;
                next[l] = next[r];
                if (next[r] >= 0) {
                    prev[next[r]] = l;
                }
                tryAddBigram(prev[l], l);
                tryAddBigram(l, next[l]);
            }
            for (int i = 0; i != -1; i = next[i]) {
                String piece = t.substring(start[i], start[i] + length[i]);
                int id = vocab.id(piece);
                if (id != Vocabulary.NONE) {
                    out.add(id);
                } else {
                    // Only single characters can be missing: every merge result is a token.
                    for (byte b : piece.getBytes(StandardCharsets.UTF_8)) {
                        out.add(vocab.byteToken(b & 0xFF));
                    }
                }
            }
        }

        private void tryAddBigram(int l, int r) {
            if (l < 0 || r < 0) {
                return;
            }
            int size = length[l] + length[r];
            int id = vocab.id(text.substring(start[l], start[l] + size));
            if (id == Vocabulary.NONE) {
                return;
            }
            // Highest score first, then leftmost: negate the order-preserving int of the score.
            long key = ((long) ~sortable(vocab.score(id)) << 32) | l;
            queue.push(key, l, r, size);
        }
    }

    /** An int whose signed order matches the float order (for finite values and infinities). */
    private static int sortable(float f) {
        int bits = Float.floatToIntBits(f);
        return bits ^ ((bits >> 31) & 0x7FFFFFFF);
    }
}
