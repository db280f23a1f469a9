package com.llmserve.engine.tokenizer;

import com.llmserve.engine.tokenizer.SpecialTokenSplitter.Fragment;
import com.llmserve.engine.tokenizer.SpecialTokenSplitter.Text;
import com.llmserve.engine.tokenizer.SpecialTokenSplitter.Token;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;

/**
 * WordPiece for uncased BERT vocabularies ({@code bert}), as Hugging Face's BertTokenizer and
 * llama.cpp's {@code llm_tokenizer_wpm_session} do it: normalise (NFD, drop nonspacing marks so
 * that "café" becomes "cafe", lower-case, drop control characters), split at whitespace and around
 * punctuation, ASCII symbols and CJK ideographs, then take the longest vocabulary match from the
 * left, word by word. A word that cannot be covered completely becomes one [UNK].
 *
 * <p>The vocabulary is in llama.cpp's "phantom space" form: a word-initial piece is stored with a
 * U+2581 prefix ("▁hello") and a continuation piece without BERT's "##" ("eme").
 */
final class WordPieceEncoder implements Encoder {

    private static final String PHANTOM_SPACE = "\u2581";

    private final Vocabulary vocab;

    WordPieceEncoder(Vocabulary vocab) {
        this.vocab = vocab;
    }

    @Override
    public void encode(List<Fragment> fragments, boolean addSpecial, IntList out) {
        if (addSpecial) {
            out.add(vocab.bos); // [CLS]
        }
        for (Fragment fragment : fragments) {
            switch (fragment) {
                case Text(String text) -> {
                    for (String word : words(text)) {
                        encodeWord(word, out);
                    }
                }
                case Token(int id) -> out.add(id);
            }
        }
        if (addSpecial) {
            out.add(vocab.sep); // [SEP]
        }
    }

    private void encodeWord(String word, IntList out) {
        String w = PHANTOM_SPACE + word;
        int n = w.length();
        int before = out.size();
        int i = 0;
        while (i < n) {
            int id = Vocabulary.NONE;
            int j = Math.min(n, i + vocab.maxTokenChars());
            for (; j > i; j--) {
                id = vocab.id(w.substring(i, j));
                if (id != Vocabulary.NONE) {
                    break;
                }
            }
            if (id == Vocabulary.NONE) {
                out.truncate(before); // the word cannot be covered: it becomes one [UNK]
                break;
            }
            out.add(id);
            i = j;
        }
        if (out.size() == before) {
            out.add(vocab.unk);
        }
    }

    /** BERT's basic tokenization of one text fragment into lower-cased words. */
    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        String nfd = Normalizer.normalize(text, Normalizer.Form.NFD);
        for (int i = 0; i < nfd.length(); ) {
            int cp = nfd.codePointAt(i);
            i += Character.charCount(cp);
            if (Unicode.isWhiteSpace(cp)) {
                flush(word, words);
                continue;
            }
            if (cp == 0
                    || cp == 0xFFFD
                    || Unicode.isControl(cp)
                    || Character.getType(cp) == Character.NON_SPACING_MARK) {
                continue; // the accent of an NFD-decomposed letter, or a character BERT drops
            }
            int lower = Character.toLowerCase(cp);
            if (Unicode.isPunctuation(cp) || (cp < 0x7F && Unicode.isSymbol(cp)) || Unicode.isCjkIdeograph(cp)) {
                flush(word, words);
                words.add(Character.toString(lower));
            } else {
                word.appendCodePoint(lower);
            }
        }
        flush(word, words);
        return words;
    }

    private static void flush(StringBuilder word, List<String> words) {
        if (!word.isEmpty()) {
            words.add(word.toString());
            word.setLength(0);
        }
    }
}
