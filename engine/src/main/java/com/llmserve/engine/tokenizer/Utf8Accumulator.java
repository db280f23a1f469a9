package com.llmserve.engine.tokenizer;

import java.util.Arrays;

/**
 * Turns a byte stream that arrives in arbitrary pieces into text without ever splitting a
 * character. Complete sequences are emitted as soon as their last byte arrives; the bytes of a
 * sequence that may still complete are held back. An ill-formed sequence becomes one U+FFFD per
 * maximal subpart (Unicode 15, section 3.9, "U+FFFD Substitution of Maximal Subparts") as soon as
 * it can no longer complete. That is what Python's {@code errors="replace"} gives, and Java's own
 * decoder too except for an encoded surrogate ({@code ED A0 80}), which Java replaces as one
 * U+FFFD instead of three.
 */
final class Utf8Accumulator {

    private static final char REPLACEMENT = '\uFFFD';

    private byte[] pending = new byte[8];
    private int pendingLength;

    /** Appends bytes and returns the text that they complete (possibly empty). */
    String append(byte[] bytes) {
        if (bytes.length == 0) {
            return "";
        }
        if (pendingLength + bytes.length > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingLength + bytes.length));
        }
        System.arraycopy(bytes, 0, pending, pendingLength, bytes.length);
        pendingLength += bytes.length;

        StringBuilder out = new StringBuilder(pendingLength);
        int consumed = decode(pending, pendingLength, out, false);
        System.arraycopy(pending, consumed, pending, 0, pendingLength - consumed);
        pendingLength -= consumed;
        return out.toString();
    }

    /** Ends the stream: bytes still held back cannot complete any more and become U+FFFD. */
    String finish() {
        StringBuilder out = new StringBuilder();
        decode(pending, pendingLength, out, true);
        pendingLength = 0;
        return out.toString();
    }

    /** Whether bytes of an incomplete character are being held back. */
    boolean hasPending() {
        return pendingLength > 0;
    }

    /** Decodes a complete byte string. */
    static String decodeAll(byte[] bytes, int length) {
        StringBuilder out = new StringBuilder(length);
        decode(bytes, length, out, true);
        return out.toString();
    }

    /**
     * Decodes {@code bytes[0, length)} into {@code out} and returns how many bytes were used. With
     * {@code atEnd} false, a truncated but so far well-formed sequence at the end is left unused.
     */
    private static int decode(byte[] bytes, int length, StringBuilder out, boolean atEnd) {
        int i = 0;
        while (i < length) {
            int b0 = bytes[i] & 0xFF;
            if (b0 < 0x80) {
                out.append((char) b0);
                i++;
                continue;
            }
            int need;
            int lo = 0x80;
            int hi = 0xBF;
            if (b0 >= 0xC2 && b0 <= 0xDF) {
                need = 1;
            } else if (b0 >= 0xE0 && b0 <= 0xEF) {
                need = 2;
                if (b0 == 0xE0) {
                    lo = 0xA0; // no overlong forms
                } else if (b0 == 0xED) {
                    hi = 0x9F; // no surrogates
                }
            } else if (b0 >= 0xF0 && b0 <= 0xF4) {
                need = 3;
                if (b0 == 0xF0) {
                    lo = 0x90;
                } else if (b0 == 0xF4) {
                    hi = 0x8F; // nothing above U+10FFFF
                }
            } else {
                out.append(REPLACEMENT); // a continuation byte or a byte that never starts a sequence
                i++;
                continue;
            }
            int cp = b0 & (0x3F >> need);
            int j = 1;
            boolean broken = false;
            for (; j <= need; j++) {
                if (i + j >= length) {
                    if (!atEnd) {
                        return i; // may still complete: hold it back
                    }
                    broken = true;
                    break;
                }
                int b = bytes[i + j] & 0xFF;
                if (b < lo || b > hi) {
                    broken = true;
                    break;
                }
                cp = (cp << 6) | (b & 0x3F);
                lo = 0x80;
                hi = 0xBF;
            }
            if (broken) {
                out.append(REPLACEMENT); // the maximal subpart bytes[i, i + j) as one replacement
                i += j;
            } else {
                out.appendCodePoint(cp);
                i += need + 1;
            }
        }
        return i;
    }
}
