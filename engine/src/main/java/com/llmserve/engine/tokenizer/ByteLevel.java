package com.llmserve.engine.tokenizer;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * GPT-2's reversible byte-to-character mapping: byte-level BPE vocabularies spell every byte as
 * one printable character, the printable Latin-1 bytes as themselves and the others (controls,
 * space, U+007F..U+00A0, U+00AD) as U+0100 onwards in byte order. So {@code " the"} is stored as
 * {@code "Ġthe"}.
 */
final class ByteLevel {

    private static final char[] BYTE_TO_CHAR = new char[256];
    private static final int[] CHAR_TO_BYTE = new int[512];

    static {
        java.util.Arrays.fill(CHAR_TO_BYTE, -1);
        int next = 256;
        for (int b = 0; b < 256; b++) {
            boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            char c = printable ? (char) b : (char) next++;
            BYTE_TO_CHAR[b] = c;
            CHAR_TO_BYTE[c] = b;
        }
    }

    private ByteLevel() {}

    static char charOf(int b) {
        return BYTE_TO_CHAR[b & 0xFF];
    }

    /** The byte-level spelling of text: one character per UTF-8 byte. */
    static String encode(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        char[] chars = new char[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            chars[i] = BYTE_TO_CHAR[bytes[i] & 0xFF];
        }
        return new String(chars);
    }

    /**
     * The bytes a byte-level token stands for. A character outside the mapping (which a well-formed
     * vocabulary does not have) is kept as its own UTF-8 bytes rather than dropped.
     */
    static byte[] decode(String token) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(token.length());
        for (int i = 0; i < token.length(); ) {
            int cp = token.codePointAt(i);
            i += Character.charCount(cp);
            int b = cp < CHAR_TO_BYTE.length ? CHAR_TO_BYTE[cp] : -1;
            if (b >= 0) {
                out.write(b);
            } else {
                out.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
            }
        }
        return out.toByteArray();
    }
}
