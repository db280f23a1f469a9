package com.llmserve.engine.grammar;

/**
 * Decoding UTF-8 one byte at a time, as tokens deliver it: a token may end inside a character,
 * and the next token completes it. A character in progress is packed in one long so walks carry
 * it cheaply: {@code value << 8 | length << 4 | remaining}, where {@code length} is the
 * character's byte count and {@code remaining} the continuation bytes still to come.
 */
final class Utf8Step {

    static final long NONE = 0;
    /** The byte cannot continue well-formed UTF-8. */
    static final long INVALID = -1;

    private static final int[] SMALLEST = {0, 0, 0x80, 0x800, 0x10000};

    private Utf8Step() {}

    /** The state after byte {@code b}; complete when {@link #complete} says so, or {@link #INVALID}. */
    static long next(long pending, int b) {
        int remaining = (int) (pending & 0xF);
        if (remaining == 0) {
            if (b < 0x80) {
                return pack(b, 1, 0);
            } else if (b >= 0xC2 && b <= 0xDF) {
                return pack(b & 0x1F, 2, 1);
            } else if (b >= 0xE0 && b <= 0xEF) {
                return pack(b & 0x0F, 3, 2);
            } else if (b >= 0xF0 && b <= 0xF4) {
                return pack(b & 0x07, 4, 3);
            }
            return INVALID;
        }
        if ((b & 0xC0) != 0x80) {
            return INVALID;
        }
        int length = (int) ((pending >>> 4) & 0xF);
        long value = ((pending >>> 8) << 6) | (b & 0x3F);
        long next = pack(value, length, remaining - 1);
        // refuse what cannot become a scalar value: overlong forms, surrogates, beyond U+10FFFF
        if (high(next) < SMALLEST[length] || low(next) > 0x10FFFF) {
            return INVALID;
        }
        if (remaining == 1 && value >= 0xD800 && value <= 0xDFFF) {
            return INVALID;
        }
        return next;
    }

    private static long pack(long value, int length, int remaining) {
        return value << 8 | (long) length << 4 | remaining;
    }

    static boolean complete(long pending) {
        return (pending & 0xF) == 0;
    }

    static int codePoint(long pending) {
        return (int) (pending >>> 8);
    }

    /** The lowest code point a character in progress can still become. */
    static int low(long pending) {
        int remaining = (int) (pending & 0xF);
        int length = (int) ((pending >>> 4) & 0xF);
        long v = (pending >>> 8) << (6 * remaining);
        return (int) Math.max(v, SMALLEST[length]);
    }

    /** The highest code point a character in progress can still become. */
    static int high(long pending) {
        int remaining = (int) (pending & 0xF);
        long v = ((pending >>> 8) << (6 * remaining)) | ((1L << (6 * remaining)) - 1);
        return (int) Math.min(v, 0x10FFFF + 1L);
    }
}
