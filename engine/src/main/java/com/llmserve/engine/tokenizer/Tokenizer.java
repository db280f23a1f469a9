package com.llmserve.engine.tokenizer;

import com.llmserve.engine.gguf.GgufMetadata;
import java.util.OptionalInt;

/**
 * Text to token ids and back, for the vocabulary stored in a GGUF file's {@code tokenizer.ggml.*}
 * keys. Encoding reproduces llama.cpp ({@code llama_tokenize}); decoding reproduces llama.cpp's
 * {@code token_to_piece} with {@code special = false}. Implementations are immutable and safe to
 * share between threads; {@link StreamingDecoder}s are not.
 */
public interface Tokenizer {

    /**
     * Builds the tokenizer that {@code tokenizer.ggml.model} names: {@code llama} (SentencePiece
     * with scores and byte fallback), {@code gpt2} (byte-level BPE with the pre-tokenizer that
     * {@code tokenizer.ggml.pre} names) or {@code bert} (WordPiece, lower-cased, accents stripped).
     *
     * @throws TokenizerException for any other model, an unknown pre-tokenizer or inconsistent keys
     */
    static Tokenizer fromGguf(GgufMetadata metadata) {
        return VocabTokenizer.create(TokenizerSpec.fromGguf(metadata));
    }

    /**
     * Encodes text.
     *
     * @param addSpecial   add the model's BOS/EOS (for BERT: [CLS] and [SEP]) as its metadata asks
     * @param parseSpecial recognise control tokens written as text, such as {@code <|im_start|>};
     *                     user-defined tokens are recognised either way, as in llama.cpp. Leave it
     *                     false for text from users, so they cannot inject control tokens.
     */
    int[] encode(String text, boolean addSpecial, boolean parseSpecial);

    /**
     * The text of these tokens: the concatenation of their {@link #tokenBytes(int)} decoded as
     * UTF-8, with each ill-formed byte sequence shown as U+FFFD. Control tokens add nothing.
     * Nothing is stripped: a SentencePiece vocabulary's first word keeps the space that encoding
     * prefixed, exactly as a streamed completion shows it.
     *
     * @throws IllegalArgumentException for an id outside the vocabulary
     */
    String decode(int[] tokens);

    /**
     * The raw bytes one token adds to the output (llama.cpp's {@code token_to_piece} with
     * {@code special = false}): a byte token gives its single byte, which need not be valid UTF-8
     * alone; a control or unknown token gives none. Returns a fresh array.
     */
    byte[] tokenBytes(int token);

    /** A decoder for one generated sequence. */
    default StreamingDecoder streamingDecoder() {
        return new StreamingDecoder(this);
    }

    int vocabSize();

    OptionalInt bos();

    OptionalInt eos();

    /** Whether {@link #encode} with {@code addSpecial} puts BOS (for BERT: [CLS]) first. */
    boolean addsBos();

    /** Whether generation ends at this token (EOS, end-of-turn and similar tokens). */
    boolean isEndOfGeneration(int token);

    /** Whether this token is a control token, which {@link #decode} renders as nothing. */
    boolean isControl(int token);

    /** The token's text exactly as the vocabulary stores it (for example {@code ▁the} or {@code Ġthe}). */
    String tokenText(int token);
}
