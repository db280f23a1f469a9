package com.llmserve.app.openai;

import com.llmserve.app.generation.Delta;
import com.llmserve.app.generation.Generation;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;
import tools.jackson.databind.json.JsonMapper;

/**
 * Streams a {@link Generation} as server-sent events. The endpoint says what the events are
 * ({@link StreamEvents}); this class owns the life of the stream: a keep-alive comment whenever
 * the model is silent for {@link ApiProperties#keepAliveInterval()}, the endpoint's error events if
 * generation fails midway, and cancellation of the generation when the client goes away (noticed
 * when a write fails, at the latest at the next keep-alive).
 */
final class GenerationStream {

    private static final Logger LOG = LoggerFactory.getLogger(GenerationStream.class);

    private GenerationStream() {}

    /**
     * The body of a 200 response that streams {@code generation}; it closes the generation in
     * every case. The headers go on {@code response} directly: a handler method returns the body
     * itself (Spring picks the streaming return handler by the returned object's class, which a
     * {@code ResponseEntity<?>} would hide).
     */
    static StreamingResponseBody body(
            Generation generation,
            StreamEvents events,
            Duration keepAlive,
            JsonMapper json,
            HttpServletResponse response) {
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.setHeader(HttpHeaders.CACHE_CONTROL, CacheControl.noCache().getHeaderValue());
        // nginx and similar proxies would otherwise buffer the stream
        response.setHeader("X-Accel-Buffering", "no");
        // Spring hands the body a stream that ignores flush(); the response itself flushes to the client
        return out -> stream(generation, events, keepAlive, new SseSink(out, json, response::flushBuffer));
    }

    private static void stream(Generation generation, StreamEvents events, Duration keepAlive, SseSink sink) {
        try (generation) {
            events.open(sink);
            sink.flush();
            while (!generation.done()) {
                Delta d = generation.next(keepAlive);
                if (d != null) {
                    events.output(d, sink);
                } else if (!generation.done()) {
                    sink.comment("keep-alive");
                }
            }
            events.close(generation.usage(), sink);
        } catch (IOException e) {
            // the client went away; closing the generation (above) cancelled it
            LOG.debug("Stream client disconnected: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            fail(events, sink, e);
        }
    }

    private static void fail(StreamEvents events, SseSink sink, RuntimeException e) {
        ApiErrors.Mapped mapped = ApiErrors.map(e);
        if (mapped == null) {
            mapped = ApiErrors.internal();
        }
        if (mapped.serverFault()) {
            LOG.error("Generation failed mid-stream", e);
        } else {
            LOG.info("Generation ended mid-stream: {}", e.getMessage());
        }
        try {
            events.fail(mapped.body(), sink);
        } catch (IOException io) {
            LOG.debug("Stream client disconnected before the error event: {}", io.toString());
        }
    }
}
