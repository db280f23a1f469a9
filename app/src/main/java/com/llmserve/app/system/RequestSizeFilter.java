package com.llmserve.app.system;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses request bodies over the limit with 413 in the OpenAI envelope: at once when
 * {@code Content-Length} says so, and while reading when a chunked body grows past it (the
 * exception handler then answers 413). Tomcat's own limit applies to form posts only.
 */
final class RequestSizeFilter extends OncePerRequestFilter {

    private final long limit;

    RequestSizeFilter(long limit) {
        this.limit = limit;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long declared = request.getContentLengthLong();
        if (declared > limit) {
            response.setStatus(HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE);
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            // a fixed body: no mapper needed, and nothing of the request is read
            response.getWriter()
                    .write(
                            "{\"error\":{\"message\":\"The request body is larger than the limit of " + limit
                                    + " bytes.\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"request_too_large\"}}");
            return;
        }
        chain.doFilter(declared >= 0 ? request : new Limited(request, limit), response);
    }

    /** A request whose body stream fails once more than {@code limit} bytes have been read. */
    private static final class Limited extends HttpServletRequestWrapper {

        private final long limit;
        private ServletInputStream stream;

        Limited(HttpServletRequest request, long limit) {
            super(request);
            this.limit = limit;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new CountingStream(super.getInputStream(), limit);
            }
            return stream;
        }
    }

    private static final class CountingStream extends CheckedBodyStream {

        private final long limit;
        private long count;

        CountingStream(ServletInputStream in, long limit) {
            super(in);
            this.limit = limit;
        }

        @Override
        void check(byte[] bytes, int offset, int length) throws RequestTooLargeException {
            count += length;
            if (count > limit) {
                throw new RequestTooLargeException(limit);
            }
        }
    }
}
