package com.llmserve.engine.tokenizer;

import java.util.OptionalInt;

/** The {@link Tokenizer} over a loaded {@link Vocabulary}, with the encoder its kind calls for. */
final class VocabTokenizer implements Tokenizer {

    private final Vocabulary vocab;
    private final Encoder encoder;
    private final SpecialTokenSplitter splitter;

    private VocabTokenizer(Vocabulary vocab, Encoder encoder) {
        this.vocab = vocab;
        this.encoder = encoder;
        this.splitter = new SpecialTokenSplitter(vocab);
    }

    static VocabTokenizer create(TokenizerSpec spec) {
        Vocabulary vocab = new Vocabulary(spec);
        Encoder encoder =
                switch (spec.kind()) {
                    case SPM -> new SentencePieceEncoder(vocab);
                    case BPE -> new ByteLevelBpeEncoder(vocab, spec.merges());
                    case WPM -> new WordPieceEncoder(vocab);
                };
        return new VocabTokenizer(vocab, encoder);
    }

    @Override
    public int[] encode(String text, boolean addSpecial, boolean parseSpecial) {
        IntList out = new IntList(text.length() / 3 + 4);
        encoder.encode(splitter.split(text, parseSpecial), addSpecial, out);
        return out.toArray();
    }

    @Override
    public String decode(int[] tokens) {
        int length = 0;
        for (int token : tokens) {
            length += piece(token).length;
        }
        byte[] bytes = new byte[length];
        int offset = 0;
        for (int token : tokens) {
            byte[] piece = piece(token);
            System.arraycopy(piece, 0, bytes, offset, piece.length);
            offset += piece.length;
        }
        return Utf8Accumulator.decodeAll(bytes, length);
    }

    @Override
    public byte[] tokenBytes(int token) {
        return piece(token).clone();
    }

    private byte[] piece(int token) {
        checkId(token);
        return vocab.piece(token, false);
    }

    @Override
    public int vocabSize() {
        return vocab.size();
    }

    @Override
    public OptionalInt bos() {
        return vocab.bos == Vocabulary.NONE ? OptionalInt.empty() : OptionalInt.of(vocab.bos);
    }

    @Override
    public OptionalInt eos() {
        return vocab.eos == Vocabulary.NONE ? OptionalInt.empty() : OptionalInt.of(vocab.eos);
    }

    @Override
    public boolean addsBos() {
        return vocab.kind == TokenizerSpec.Kind.WPM || vocab.addBos; // WordPiece always adds [CLS]
    }

    @Override
    public boolean isEndOfGeneration(int token) {
        return vocab.isEndOfGeneration(token);
    }

    @Override
    public boolean isControl(int token) {
        checkId(token);
        return (vocab.attr(token) & TokenAttr.CONTROL) != 0;
    }

    @Override
    public String tokenText(int token) {
        checkId(token);
        return vocab.text(token);
    }

    private void checkId(int token) {
        if (token < 0 || token >= vocab.size()) {
            throw new IllegalArgumentException(
                    "token id " + token + " is outside the vocabulary (size " + vocab.size() + ")");
        }
    }

    @Override
    public String toString() {
        return "Tokenizer[" + vocab.kind + (vocab.preTokenizer != null ? "/" + vocab.preTokenizer : "") + ", "
                + vocab.size() + " tokens]";
    }
}
