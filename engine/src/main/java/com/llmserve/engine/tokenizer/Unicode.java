package com.llmserve.engine.tokenizer;

/** The few Unicode properties the tokenizers test, with llama.cpp's definitions. */
final class Unicode {

    private Unicode() {}

    /**
     * The White_Space property (PropList.txt), which llama.cpp uses for {@code \s}. Java's
     * {@link Character#isWhitespace} differs: it leaves out U+00A0 and U+202F and adds U+001C..1F.
     */
    static boolean isWhiteSpace(int cp) {
        return (cp >= 0x09 && cp <= 0x0D)
                || cp == 0x20
                || cp == 0x85
                || cp == 0xA0
                || cp == 0x1680
                || (cp >= 0x2000 && cp <= 0x200A)
                || cp == 0x2028
                || cp == 0x2029
                || cp == 0x202F
                || cp == 0x205F
                || cp == 0x3000;
    }

    /** General category C other than Cn: Cc, Cf, Co, Cs (llama.cpp's "control" flag). */
    static boolean isControl(int cp) {
        return switch (Character.getType(cp)) {
            case Character.CONTROL, Character.FORMAT, Character.PRIVATE_USE, Character.SURROGATE -> true;
            default -> false;
        };
    }

    /** General category P (Pc, Pd, Ps, Pe, Pi, Pf, Po). */
    static boolean isPunctuation(int cp) {
        return switch (Character.getType(cp)) {
            case Character.CONNECTOR_PUNCTUATION,
                    Character.DASH_PUNCTUATION,
                    Character.START_PUNCTUATION,
                    Character.END_PUNCTUATION,
                    Character.INITIAL_QUOTE_PUNCTUATION,
                    Character.FINAL_QUOTE_PUNCTUATION,
                    Character.OTHER_PUNCTUATION -> true;
            default -> false;
        };
    }

    /** General category S (Sm, Sc, Sk, So). */
    static boolean isSymbol(int cp) {
        return switch (Character.getType(cp)) {
            case Character.MATH_SYMBOL, Character.CURRENCY_SYMBOL, Character.MODIFIER_SYMBOL, Character.OTHER_SYMBOL ->
                true;
            default -> false;
        };
    }

    /** CJK ideographs as BERT's BasicTokenizer delimits them (its ranges, including its 0x2B920 typo). */
    static boolean isCjkIdeograph(int cp) {
        return (cp >= 0x4E00 && cp <= 0x9FFF)
                || (cp >= 0x3400 && cp <= 0x4DBF)
                || (cp >= 0x20000 && cp <= 0x2A6DF)
                || (cp >= 0x2A700 && cp <= 0x2B73F)
                || (cp >= 0x2B740 && cp <= 0x2B81F)
                || (cp >= 0x2B920 && cp <= 0x2CEAF)
                || (cp >= 0xF900 && cp <= 0xFAFF)
                || (cp >= 0x2F800 && cp <= 0x2FA1F);
    }
}
