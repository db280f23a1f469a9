package com.llmserve.engine.tokenizer;

import com.llmserve.engine.gguf.GgufMetadata;
import com.llmserve.engine.gguf.GgufValue.GgufArray;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The {@code tokenizer.ggml.*} keys of a GGUF file, read once and checked for shape (array types
 * and lengths). llama.cpp's defaults and per-model adjustments are applied later, by
 * {@link Vocabulary}; this record holds only what the file says.
 *
 * @param kind           the algorithm {@code tokenizer.ggml.model} names
 * @param pre            {@code tokenizer.ggml.pre}, empty when absent
 * @param modelName      {@code general.name}, empty when absent (llama.cpp keys a few quirks on it)
 * @param tokens         the vocabulary, index = token id
 * @param scores         SentencePiece scores, or {@code null}
 * @param tokenTypes     GGUF token types ({@code llama_token_type}), or {@code null}
 * @param merges         BPE merges ("left right", highest priority first); empty for other kinds
 * @param ids            the special token ids the file sets
 * @param addBos         {@code tokenizer.ggml.add_bos_token}
 * @param addEos         {@code tokenizer.ggml.add_eos_token}
 * @param addSpacePrefix {@code tokenizer.ggml.add_space_prefix}
 */
record TokenizerSpec(
        Kind kind,
        String pre,
        String modelName,
        String[] tokens,
        float[] scores,
        int[] tokenTypes,
        String[] merges,
        SpecialIds ids,
        Optional<Boolean> addBos,
        Optional<Boolean> addEos,
        Optional<Boolean> addSpacePrefix) {

    /** The tokenizer algorithms, by their {@code tokenizer.ggml.model} names. */
    enum Kind {
        /** SentencePiece BPE with scores and byte fallback: {@code llama}. */
        SPM("llama"),
        /** Byte-level BPE with merges: {@code gpt2}. */
        BPE("gpt2"),
        /** WordPiece: {@code bert}. */
        WPM("bert");

        final String ggufName;

        Kind(String ggufName) {
            this.ggufName = ggufName;
        }

        static Kind forName(String model) {
            for (Kind kind : values()) {
                if (kind.ggufName.equals(model)) {
                    return kind;
                }
            }
            throw new TokenizerException("unsupported tokenizer.ggml.model '" + model
                    + "'; supported: llama (SentencePiece), gpt2 (byte-level BPE), bert (WordPiece)");
        }
    }

    /**
     * Special token ids as stored; a value may lie outside the vocabulary (files write
     * 4294967295 for "none"), which {@link Vocabulary} treats as llama.cpp does.
     */
    record SpecialIds(
            OptionalLong bos,
            OptionalLong eos,
            OptionalLong eot,
            OptionalLong eom,
            OptionalLong unk,
            OptionalLong sep,
            OptionalLong pad,
            OptionalLong cls,
            OptionalLong mask) {

        static SpecialIds none() {
            OptionalLong e = OptionalLong.empty();
            return new SpecialIds(e, e, e, e, e, e, e, e, e);
        }
    }

    private static final String PREFIX = "tokenizer.ggml.";

    TokenizerSpec {
        if (tokens.length == 0) {
            throw new TokenizerException(PREFIX + "tokens is empty");
        }
        if (scores != null && scores.length < tokens.length) {
            throw new TokenizerException(
                    PREFIX + "scores has " + scores.length + " entries for " + tokens.length + " tokens");
        }
        if (tokenTypes != null && tokenTypes.length < tokens.length) {
            throw new TokenizerException(
                    PREFIX + "token_type has " + tokenTypes.length + " entries for " + tokens.length + " tokens");
        }
        if (kind == Kind.BPE && merges.length == 0) {
            throw new TokenizerException(PREFIX + "merges is missing or empty; a gpt2 tokenizer needs it");
        }
    }

    static TokenizerSpec fromGguf(GgufMetadata m) {
        Kind kind = Kind.forName(m.findString(PREFIX + "model")
                .orElseThrow(() -> new TokenizerException(PREFIX + "model is missing: the file has no vocabulary")));
        String[] tokens = m.findStringArray(PREFIX + "tokens")
                .orElseThrow(() -> new TokenizerException(PREFIX + "tokens is missing"));
        SpecialIds ids = new SpecialIds(
                m.findLong(PREFIX + "bos_token_id"),
                m.findLong(PREFIX + "eos_token_id"),
                m.findLong(PREFIX + "eot_token_id"),
                m.findLong(PREFIX + "eom_token_id"),
                m.findLong(PREFIX + "unknown_token_id"),
                m.findLong(PREFIX + "seperator_token_id"), // sic: the GGUF key is misspelt
                m.findLong(PREFIX + "padding_token_id"),
                m.findLong(PREFIX + "cls_token_id"),
                m.findLong(PREFIX + "mask_token_id"));
        return new TokenizerSpec(
                kind,
                m.findString(PREFIX + "pre").orElse(""),
                m.findString("general.name").orElse(""),
                tokens,
                scores(m),
                m.findIntArray(PREFIX + "token_type").orElse(null),
                kind == Kind.BPE ? m.findStringArray(PREFIX + "merges").orElse(new String[0]) : new String[0],
                ids,
                m.findBoolean(PREFIX + "add_bos_token"),
                m.findBoolean(PREFIX + "add_eos_token"),
                m.findBoolean(PREFIX + "add_space_prefix"));
    }

    /** Byte-level BPE from a plain token list and merge list (for vocabularies shipped as files). */
    static TokenizerSpec bpe(String[] tokens, String[] merges, String pre) {
        return new TokenizerSpec(
                Kind.BPE,
                pre,
                "",
                tokens,
                null,
                null,
                merges,
                SpecialIds.none(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty());
    }

    // llama.cpp also accepts integer scores.
    private static float[] scores(GgufMetadata m) {
        Optional<GgufArray> array = m.findArray(PREFIX + "scores");
        if (array.isEmpty()) {
            return null;
        }
        if (array.get().values() instanceof int[] ints) {
            float[] f = new float[ints.length];
            for (int i = 0; i < ints.length; i++) {
                f[i] = ints[i];
            }
            return f;
        }
        return m.findFloatArray(PREFIX + "scores").orElseThrow();
    }
}
