package com.llmserve.app.system;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Holds request bodies to well-formed UTF-8 (RFC 3629, as JSON requires) while they are read:
 * the JSON parser decodes some ill-formed sequences instead of refusing them, such as the overlong
 * {@code C0 80} (a NUL in disguise) and encoded surrogates, so {@code a\xc0\x80b} would reach a
 * prompt as {@code a\0b} while other invalid bytes get a 400. A body that is not UTF-8 fails with
 * {@link MalformedBodyException}, which the exception handler answers 400 {@code invalid_json}.
 */
final class Utf8BodyFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(new Checked(request), response);
    }

    private static final class Checked extends HttpServletRequestWrapper {

        private ServletInputStream stream;

        Checked(HttpServletRequest request) {
            super(request);
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new Utf8Stream(super.getInputStream());
            }
            return stream;
        }
    }

    /** Checks each byte as it passes; the check is Unicode's table of well-formed byte sequences. */
    private static final class Utf8Stream extends CheckedBodyStream {

        private final Utf8Check utf8 = new Utf8Check();

        Utf8Stream(ServletInputStream in) {
            super(in);
        }

        @Override
        void check(byte[] bytes, int offset, int length) throws MalformedBodyException {
            for (int i = 0; i < length; i++) {
                utf8.accept(bytes[offset + i] & 0xff);
            }
        }

        @Override
        void end() throws MalformedBodyException {
            utf8.end();
        }
    }

    /** Well-formed UTF-8, byte by byte (The Unicode Standard, table 3-7). */
    static final class Utf8Check {

        private long offset;
        private int pending;
        /** The range the next continuation byte must be in; narrower than 80..BF right after some lead bytes. */
        private int low = 0x80;

        private int high = 0xBF;

        void accept(int b) throws MalformedBodyException {
            if (pending > 0) {
                if (b < low || b > high) {
                    throw new MalformedBodyException(offset);
                }
                pending--;
                low = 0x80;
                high = 0xBF;
            } else if (b >= 0x80) {
                lead(b);
            }
            offset++;
        }

        private void lead(int b) throws MalformedBodyException {
            if (b >= 0xC2 && b <= 0xDF) {
                pending = 1;
            } else if (b >= 0xE0 && b <= 0xEF) {
                pending = 2;
                if (b == 0xE0) {
                    low = 0xA0; // below: an overlong form
                } else if (b == 0xED) {
                    high = 0x9F; // above: a surrogate
                }
            } else if (b >= 0xF0 && b <= 0xF4) {
                pending = 3;
                if (b == 0xF0) {
                    low = 0x90;
                } else if (b == 0xF4) {
                    high = 0x8F; // above: beyond U+10FFFF
                }
            } else {
                throw new MalformedBodyException(offset); // 80..C1 (continuation, overlong) or F5..FF
            }
        }

        void end() throws MalformedBodyException {
            if (pending > 0) {
                throw new MalformedBodyException(offset);
            }
        }
    }
}
