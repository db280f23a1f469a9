package com.llmserve.engine.tokenizer;

import com.llmserve.engine.tokenizer.SpecialTokenSplitter.Fragment;
import com.llmserve.engine.tokenizer.SpecialTokenSplitter.Text;
import com.llmserve.engine.tokenizer.SpecialTokenSplitter.Token;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Byte-level BPE as llama.cpp runs it for {@code gpt2} vocabularies
 * ({@code llm_tokenizer_bpe_session}): the pre-tokenizer cuts text into words, each word is spelt
 * as one symbol per UTF-8 byte, and adjacent symbols merge by merge rank, lowest first (leftmost
 * on ties), until no listed pair remains. With {@code ignore_merges} (Llama 3) a word that is
 * already a token is taken whole.
 */
final class ByteLevelBpeEncoder implements Encoder {

    private static final int DEAD = -1;

    private final Vocabulary vocab;
    private final BpeMerges merges;

    ByteLevelBpeEncoder(Vocabulary vocab, String[] mergeList) {
        this.vocab = vocab;
        this.merges = new BpeMerges(vocab, mergeList);
    }

    @Override
    public void encode(List<Fragment> fragments, boolean addSpecial, IntList out) {
        if (addSpecial && vocab.addBos) {
            out.add(vocab.bos);
        }
        Session session = new Session();
        for (Fragment fragment : fragments) {
            switch (fragment) {
                case Text(String text) -> {
                    for (String word : vocab.preTokenizer.split(text)) {
                        session.encodeWord(word, out);
                    }
                }
                case Token(int id) -> out.add(id);
            }
        }
        if (addSpecial && vocab.addEos) {
            out.add(vocab.eos);
        }
    }

    /** Scratch arrays for one encode call, grown as needed. */
    private final class Session {
        private final MergeQueue queue = new MergeQueue();
        private int[] piece = new int[64];
        private int[] prev = new int[64];
        private int[] next = new int[64];

        void encodeWord(String word, IntList out) {
            byte[] bytes = word.getBytes(StandardCharsets.UTF_8);
            int n = bytes.length;
            if (n == 0) {
                return;
            }
            if (vocab.ignoreMerges) {
                int whole = vocab.id(ByteLevel.encode(word));
                if (whole != Vocabulary.NONE) {
                    out.add(whole);
                    return;
                }
            }
            if (piece.length < n) {
                piece = new int[n];
                prev = new int[n];
                next = new int[n];
            }
            for (int i = 0; i < n; i++) {
                piece[i] = merges.bytePiece(bytes[i]);
                prev[i] = i - 1;
                next[i] = i + 1 < n ? i + 1 : -1;
            }
            queue.clear();
            for (int i = 1; i < n; i++) {
                addBigram(i - 1, i);
            }
            while (!queue.isEmpty()) {
                queue.pop();
                int l = queue.poppedLeft;
                int r = queue.poppedA;
                int slot = queue.poppedB;
                // Skip a candidate whose symbols changed after it was queued. A live pair with
                // the same pieces is the same merge, since a rank names exactly one pair.
                if (piece[l] == DEAD || next[l] != r || piece[r] == DEAD || merges.find(piece[l], piece[r]) != slot) {
                    continue;
                }
                piece[l] = merges.resultAt(slot);
                piece[r] = DEAD;
                next[l] = next[r];
                if (next[r] >= 0) {
                    prev[next[r]] = l;
                }
                addBigram(prev[l], l);
                addBigram(l, next[l]);
            }
            for (int i = 0; i != -1; i = next[i]) {
                int token = merges.tokenOf(piece[i]);
                if (token != Vocabulary.NONE) {
                    out.add(token);
                } else {
                    // llama.cpp's fallback: each single-byte character that is a token on its
                    // own. Byte-level vocabularies have all 256, so this is not reached in practice.
                    String text = merges.textOf(piece[i]);
                    for (int k = 0; k < text.length(); k++) {
                        char c = text.charAt(k);
                        int id = c < 0x80 ? vocab.id(String.valueOf(c)) : Vocabulary.NONE;
                        if (id != Vocabulary.NONE) {
                            out.add(id);
                        }
                    }
                }
            }
        }

        private void addBigram(int l, int r) {
            if (l < 0 || r < 0) {
                return;
            }
            int slot = merges.find(piece[l], piece[r]);
            if (slot < 0) {
                return;
            }
            queue.push(((long) merges.rankAt(slot) << 32) | l, l, r, slot);
        }
    }
}
