package com.llmserve.engine.tokenizer;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Splits special tokens out of text before the tokenizer proper runs (llama.cpp's
 * {@code tokenizer_st_partition}). Tokens are tried longest first; each one splits every text
 * fragment left by the previous ones at all its occurrences. Control and unknown tokens are
 * recognised only when the caller asks for it; user-defined tokens always are, as in Hugging
 * Face's added-token handling.
 */
final class SpecialTokenSplitter {

    /** A piece of the input: text still to tokenize, or a token already decided. */
    sealed interface Fragment permits Text, Token {}

    record Text(String text) implements Fragment {}

    record Token(int id) implements Fragment {}

    private final Vocabulary vocab;

    SpecialTokenSplitter(Vocabulary vocab) {
        this.vocab = vocab;
    }

    List<Fragment> split(String text, boolean parseSpecial) {
        List<Fragment> fragments = new ArrayList<>();
        if (text.isEmpty()) {
            return fragments;
        }
        fragments.add(new Text(text));
        // A special token can only occur if its first character does; this skips nearly all of
        // them for ordinary text without changing the result.
        BitSet present = new BitSet(1 << 16);
        for (int i = 0; i < text.length(); i++) {
            present.set(text.charAt(i));
        }
        for (int id : vocab.splitTokens()) {
            int attr = vocab.attr(id);
            if (!parseSpecial && (attr & (TokenAttr.CONTROL | TokenAttr.UNKNOWN)) != 0) {
                continue;
            }
            String special = vocab.text(id);
            if (!present.get(special.charAt(0)) || !text.contains(special)) {
                continue;
            }
            fragments = splitAll(fragments, id, special, attr);
        }
        return fragments;
    }

    private static List<Fragment> splitAll(List<Fragment> fragments, int id, String special, int attr) {
        List<Fragment> out = new ArrayList<>(fragments.size() + 2);
        for (Fragment fragment : fragments) {
            if (!(fragment instanceof Text(String s))) {
                out.add(fragment);
                continue;
            }
            int pos = 0;
            int match;
            while ((match = s.indexOf(special, pos)) >= 0) {
                int leftEnd = match;
                if ((attr & TokenAttr.LSTRIP) != 0) {
                    while (leftEnd > pos && isAsciiSpace(s.charAt(leftEnd - 1))) {
                        leftEnd--;
                    }
                }
                if (leftEnd > pos) {
                    out.add(new Text(s.substring(pos, leftEnd)));
                }
                out.add(new Token(id));
                pos = match + special.length();
                if ((attr & TokenAttr.RSTRIP) != 0) {
                    while (pos < s.length() && isAsciiSpace(s.charAt(pos))) {
                        pos++;
                    }
                }
            }
            if (pos < s.length()) {
                out.add(pos == 0 ? fragment : new Text(s.substring(pos)));
            }
        }
        return out;
    }

    // C's isspace in the "C" locale, which llama.cpp uses for lstrip/rstrip.
    private static boolean isAsciiSpace(char c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }
}
