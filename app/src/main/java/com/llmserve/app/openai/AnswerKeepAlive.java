package com.llmserve.app.openai;

import com.llmserve.app.system.ClientConnection;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.json.JsonMapper;

/**
 * Watches the client of a non-streaming generation. Tomcat does not notice that the client of a
 * request which neither reads nor writes has gone, so the connection is asked every
 * {@link #PROBE_INTERVAL} ({@link ClientConnection}); and an answer that takes longer than the
 * keep-alive interval commits its response (200, {@code application/json}) and sends a space
 * every interval, leading whitespace being valid JSON, which keeps proxies from timing out. A
 * client found gone, or a write that fails, means the caller cancels the generation. An answer that is ready sooner keeps the usual status
 * codes; one that fails after its 200 went out carries the error envelope as its body.
 */
final class AnswerKeepAlive {

    private static final Logger LOG = LoggerFactory.getLogger(AnswerKeepAlive.class);
    private static final byte[] SPACE = {' '};
    /** How often the connection is asked whether its client is still there (vLLM and llama.cpp notice within a second). */
    static final Duration PROBE_INTERVAL = Duration.ofMillis(500);

    private final HttpServletResponse response;
    private final ClientConnection connection;
    private final long intervalNanos;
    private long due;
    private long probeDue;
    private boolean committed;

    AnswerKeepAlive(HttpServletRequest request, HttpServletResponse response, Duration interval) {
        this.response = response;
        this.connection = ClientConnection.of(request);
        this.intervalNanos = interval.toNanos();
        long now = System.nanoTime();
        this.due = now + intervalNanos;
        this.probeDue = now + PROBE_INTERVAL.toNanos();
    }

    /** How long the caller may wait for output before {@link #ping()} is due. */
    Duration untilDue() {
        return Duration.ofNanos(Math.max(1_000_000, Math.min(due, probeDue) - System.nanoTime()));
    }

    /**
     * Asks the connection whether its client is there when that is due, and sends a space when one is due.
     *
     * @return false when the client has gone (the caller cancels its generation and answers nothing)
     */
    boolean ping() {
        long now = System.nanoTime();
        if (now - probeDue >= 0) {
            probeDue = now + PROBE_INTERVAL.toNanos();
            if (connection.gone()) {
                LOG.debug("Client of a non-streaming answer closed its connection");
                return false;
            }
        }
        if (now - due < 0) {
            return true;
        }
        due = now + intervalNanos;
        try {
            if (!committed) {
                response.setStatus(HttpServletResponse.SC_OK);
                response.setContentType(MediaType.APPLICATION_JSON_VALUE);
                response.setCharacterEncoding(StandardCharsets.UTF_8.name());
                committed = true;
            }
            response.getOutputStream().write(SPACE);
            response.flushBuffer();
            return true;
        } catch (IOException e) {
            LOG.debug("Client of a non-streaming answer disconnected: {}", e.toString());
            return false;
        }
    }

    /** The answer: a 200 with {@code body}, written straight after the spaces once the response is committed. */
    ResponseEntity<Object> respond(Object body, JsonMapper json) throws IOException {
        if (!committed) {
            return ResponseEntity.ok(body);
        }
        response.getOutputStream().write(json.writeValueAsBytes(body));
        response.flushBuffer();
        return null;
    }
}
