package com.llmserve.engine.tokenizer;

import com.llmserve.engine.tokenizer.TokenizerSpec.Kind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A vocabulary with llama.cpp's load-time rules applied ({@code llama_vocab::impl::load}): the
 * per-model default special ids and flags, GGUF overrides, token attributes (including the
 * adjustments llama.cpp makes by token text and model name), the end-of-generation set, the list
 * of special tokens that are split out of text, and each token's output bytes.
 */
final class Vocabulary {

    static final int NONE = -1;

    private static final String SPACE_MARK = "\u2581"; // SentencePiece's visible space

    /** Texts llama.cpp treats as end-of-turn markers (its EOT auto-detection). */
    private static final Set<String> EOT_TEXTS = Set.of(
            "<|eot_id|>",
            "<|im_end|>",
            "<|end|>",
            "<end_of_turn>",
            "<|endoftext|>",
            "<|end_of_text|>",
            "<EOT>",
            "_<EOT>",
            "<\uFF5Cend\u2581of\u2581sentence\uFF5C>",
            "<end_of_utterance>");

    /** Texts that end generation wherever they occur in a vocabulary (llama.cpp's EOG list). */
    private static final Set<String> EOG_TEXTS = Set.of(
            "<|eot_id|>",
            "<|im_end|>",
            "<|end|>",
            "<end_of_turn>",
            "<|endoftext|>",
            "<|eom_id|>",
            "<EOT>",
            "_<EOT>",
            "<|end_of_text|>",
            "<end_of_utterance>");

    final Kind kind;
    /** The BPE pre-tokenizer; {@code null} for other kinds. */
    final BpePreTokenizer preTokenizer;

    private final String[] text;
    private final float[] score;
    private final int[] attr;
    private final Map<String, Integer> ids;
    private final int maxTokenChars;

    final int bos;
    final int eos;
    final int unk;
    final int sep;
    final boolean addBos;
    final boolean addEos;
    final boolean addSpacePrefix;
    final boolean ignoreMerges;

    private final BitSet endOfGeneration = new BitSet();
    /** Tokens split out of text before the tokenizer runs, longest text first. */
    private final int[] splitTokens;

    private final byte[][] pieces;
    /** SentencePiece byte-fallback tokens by byte value, {@link #NONE} where the vocabulary has none. */
    private final int[] byteTokens = new int[256];

    Vocabulary(TokenizerSpec spec) {
        this.kind = spec.kind();
        int n = spec.tokens().length;
        this.text = new String[n];
        this.score = new float[n];
        this.attr = new int[n];
        this.ids = HashMap.newHashMap(n);
        int maxChars = 0;
        for (int i = 0; i < n; i++) {
            String word = spec.tokens()[i];
            if (word.isEmpty()) {
                word = "[EMPTY_" + i + "]"; // as llama.cpp, so that no token matches empty text
            }
            text[i] = word;
            ids.put(word, i); // a duplicate keeps the last id, as llama.cpp's map assignment did
            score[i] = spec.scores() != null ? spec.scores()[i] : 0f;
            attr[i] = spec.tokenTypes() != null ? TokenAttr.fromGgufType(spec.tokenTypes()[i]) : TokenAttr.NORMAL;
            maxChars = Math.max(maxChars, word.length());
        }
        this.maxTokenChars = maxChars;

        // Defaults by kind, as llama.cpp sets them before reading any override.
        int defBos;
        int defEos;
        int defUnk;
        int defSep = NONE;
        boolean defAddBos;
        boolean defAddSpacePrefix = false;
        switch (kind) {
            case SPM -> {
                defBos = 1;
                defEos = 2;
                defUnk = 0;
                defAddBos = true;
                defAddSpacePrefix = true;
                this.preTokenizer = null;
            }
            case WPM -> {
                defBos = 101; // [CLS]
                defEos = NONE;
                defUnk = 100;
                defSep = 102;
                defAddBos = true;
                this.preTokenizer = null;
            }
            case BPE -> {
                this.preTokenizer = BpePreTokenizer.forName(spec.pre());
                defBos = preTokenizer == BpePreTokenizer.CHATGLM4 ? NONE : 11;
                defEos = 11;
                defUnk = NONE;
                defAddBos = preTokenizer.addsBosByDefault();
            }
            default -> throw new IllegalStateException(kind.toString());
        }
        this.ignoreMerges = preTokenizer != null && preTokenizer.ignoreMerges();

        TokenizerSpec.SpecialIds given = spec.ids();
        // BERT files name [CLS] with cls_token_id; it plays the role of BOS.
        OptionalLong bosKey = given.bos().isPresent() || kind != Kind.WPM ? given.bos() : given.cls();
        this.bos = special(bosKey, defBos, n);
        this.eos = special(given.eos(), defEos, n);
        this.unk = special(given.unk(), defUnk, n);
        this.sep = special(given.sep(), defSep, n);
        int eot = special(given.eot(), NONE, n);
        int eom = special(given.eom(), NONE, n);

        this.addBos = spec.addBos().orElse(defAddBos);
        this.addEos = spec.addEos().orElse(false);
        this.addSpacePrefix = spec.addSpacePrefix().orElse(defAddSpacePrefix);
        if (addBos && bos == NONE) {
            throw new TokenizerException("tokenizer.ggml.add_bos_token is true, but there is no BOS token id");
        }
        if (addEos && eos == NONE) {
            throw new TokenizerException("tokenizer.ggml.add_eos_token is true, but there is no EOS token id");
        }
        if (kind == Kind.WPM && sep == NONE) {
            throw new TokenizerException("a bert vocabulary needs tokenizer.ggml.seperator_token_id");
        }
        // WordPiece writes [CLS] whatever add_bos_token says, and [UNK] for a word it cannot cover
        if (kind == Kind.WPM && bos == NONE) {
            throw new TokenizerException(
                    "a bert vocabulary needs a [CLS] token: tokenizer.ggml.cls_token_id (or bos_token_id)");
        }
        if (kind == Kind.WPM && unk == NONE) {
            throw new TokenizerException("a bert vocabulary needs tokenizer.ggml.unknown_token_id ([UNK])");
        }

        markEndOfGeneration(eot, eom);
        this.splitTokens = sortedSplitTokens();
        adjustAttributesByName(spec);

        this.pieces = new byte[n][];
        for (int id = 0; id < n; id++) {
            pieces[id] = piece(id);
        }
        for (int b = 0; b < 256; b++) {
            int id = id(String.format(Locale.ROOT, "<0x%02X>", b));
            byteTokens[b] = id == NONE && b < 0x80 ? id(String.valueOf((char) b)) : id;
        }
    }

    /**
     * Marker tokens that a converter left NORMAL still end turns; llama.cpp makes them CONTROL so
     * that they are neither printed nor matched in user text. Scanned in id order, so that the
     * choice of EOT among several candidates is reproducible.
     */
    private void markEndOfGeneration(int eot, int eom) {
        for (int id = 0; id < text.length; id++) {
            String t = text[id];
            if (eot == NONE && EOT_TEXTS.contains(t)) {
                eot = id;
                attr[id] |= TokenAttr.CONTROL;
            }
            if (eom == NONE && t.equals("<|eom_id|>")) {
                eom = id;
                attr[id] |= TokenAttr.CONTROL;
            }
            if (EOG_TEXTS.contains(t)) {
                endOfGeneration.set(id);
                attr[id] |= TokenAttr.CONTROL;
            }
        }
        for (int id : new int[] {eos, eot, eom}) {
            if (id != NONE) {
                endOfGeneration.set(id);
            }
        }
    }

    /**
     * The control, user-defined and unknown tokens, longest first (by UTF-8 length, as llama.cpp
     * sorts) so that a token containing another is found before it; ids break ties so that the
     * order is reproducible.
     */
    private int[] sortedSplitTokens() {
        List<long[]> split = new ArrayList<>();
        for (int id = 0; id < text.length; id++) {
            if ((attr[id] & (TokenAttr.CONTROL | TokenAttr.USER_DEFINED | TokenAttr.UNKNOWN)) != 0) {
                split.add(new long[] {text[id].getBytes(StandardCharsets.UTF_8).length, id});
            }
        }
        split.sort(Comparator.comparingLong((long[] e) -> -e[0]).thenComparingLong(e -> e[1]));
        return split.stream().mapToInt(e -> (int) e[1]).toArray();
    }

    /**
     * llama.cpp keys two quirks on names rather than on file data: Phi-3 strips whitespace after
     * its special tokens, and Jina v2 strips whitespace before {@code <mask>}.
     */
    private void adjustAttributesByName(TokenizerSpec spec) {
        String name = spec.modelName().toLowerCase(Locale.ROOT);
        String pre = spec.pre();
        if (pre.contains("jina-v2-de") || pre.contains("jina-v2-es") || pre.contains("jina-v2-code")) {
            setAttr("<mask>", TokenAttr.LSTRIP, true);
        } else if (name.contains("phi-3") || name.contains("phi3")) {
            for (int id : splitTokens) {
                attr[id] |= TokenAttr.RSTRIP;
            }
            setAttr("</s>", TokenAttr.RSTRIP, true);
            for (String t : new String[] {"<unk>", "<s>", "<|endoftext|>"}) {
                setAttr(t, TokenAttr.RSTRIP, false);
            }
        }
    }

    private void setAttr(String token, int bit, boolean on) {
        Integer id = ids.get(token);
        if (id != null) {
            attr[id] = on ? attr[id] | bit : attr[id] & ~bit;
        }
    }

    /**
     * llama.cpp's rule for special ids: a default outside the vocabulary is disabled; a value from
     * the file replaces the default only when it lies inside the vocabulary.
     */
    private static int special(OptionalLong fromFile, int fallback, int n) {
        int id = fallback >= n ? NONE : fallback;
        if (fromFile.isPresent() && fromFile.getAsLong() >= 0 && fromFile.getAsLong() < n) {
            id = (int) fromFile.getAsLong();
        }
        return id;
    }

    /** The bytes {@code token_to_piece(special = false)} gives for a token. */
    private byte[] piece(int id) {
        int a = attr[id];
        String t = text[id];
        if ((a & (TokenAttr.UNKNOWN | TokenAttr.CONTROL)) != 0) {
            return new byte[0];
        }
        if ((a & TokenAttr.USER_DEFINED) != 0) {
            return t.getBytes(StandardCharsets.UTF_8);
        }
        if ((a & TokenAttr.NORMAL) != 0) {
            return kind == Kind.BPE
                    ? ByteLevel.decode(t)
                    : t.replace(SPACE_MARK, " ").getBytes(StandardCharsets.UTF_8);
        }
        if ((a & TokenAttr.BYTE) != 0) {
            int b = parseByteToken(t);
            return b >= 0 ? new byte[] {(byte) b} : new byte[0];
        }
        return new byte[0]; // unused and undefined tokens print nothing, as in llama.cpp
    }

    /** The byte value of a {@code <0xXX>} token, or -1. */
    private static int parseByteToken(String t) {
        if (t.length() == 6 && t.startsWith("<0x") && t.endsWith(">")) {
            try {
                return Integer.parseInt(t.substring(3, 5), 16);
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        return -1;
    }

    int size() {
        return text.length;
    }

    /** The id of a token text, or {@link #NONE}. */
    int id(String tokenText) {
        Integer id = ids.get(tokenText);
        return id == null ? NONE : id;
    }

    String text(int id) {
        return text[id];
    }

    float score(int id) {
        return score[id];
    }

    int attr(int id) {
        return attr[id];
    }

    int maxTokenChars() {
        return maxTokenChars;
    }

    int[] splitTokens() {
        return splitTokens;
    }

    byte[] piece(int id, boolean copy) {
        return copy ? pieces[id].clone() : pieces[id];
    }

    boolean isEndOfGeneration(int id) {
        return id >= 0 && endOfGeneration.get(id);
    }

    /**
     * SentencePiece byte fallback: the {@code <0xXX>} token of a byte, else a one-character token
     * for an ASCII byte. A vocabulary with neither maps the byte to UNK (llama.cpp would abort).
     */
    int byteToken(int b) {
        int id = byteTokens[b & 0xFF];
        if (id == NONE) {
            if (unk == NONE) {
                throw new TokenizerException(
                        "the vocabulary has no token for byte 0x" + Integer.toHexString(b) + " and no unknown token");
            }
            id = unk;
        }
        return id;
    }
}
