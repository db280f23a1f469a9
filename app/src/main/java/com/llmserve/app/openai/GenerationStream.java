package com.llmserve.app.openai;

import com.llmserve.app.generation.Delta;
import com.llmserve.app.generation.Generation;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.NullNode;

/**
 * Streams a {@link Generation} as server-sent events. The endpoint shapes the chunks
 * ({@link GenerationShape}); this class owns the framing and the life of the stream: the usage
 * chunk when asked for, a keep-alive comment whenever the model is silent for
 * {@link ApiProperties#keepAliveInterval()}, an error chunk then {@code [DONE]} if generation
 * fails midway, and cancellation of the generation when the client goes away (noticed when a
 * write fails, at the latest at the next keep-alive).
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
    static <C> StreamingResponseBody body(
            Generation generation,
            GenerationShape<C> shape,
            boolean includeUsage,
            Duration keepAlive,
            JsonMapper json,
            HttpServletResponse response) {
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.setHeader(HttpHeaders.CACHE_CONTROL, CacheControl.noCache().getHeaderValue());
        // nginx and similar proxies would otherwise buffer the stream
        response.setHeader("X-Accel-Buffering", "no");
        // with include_usage every chunk carries "usage": null until the last one
        JsonNode usagePlaceholder = includeUsage ? NullNode.getInstance() : null;
        // Spring hands the body a stream that ignores flush(); the response itself flushes to the client
        return out -> stream(
                generation, shape, usagePlaceholder, keepAlive, json, new SseSink(out, json, response::flushBuffer));
    }

    /** @param usagePlaceholder the {@code usage} of every chunk but the last: null for none */
    private static <C> void stream(
            Generation generation,
            GenerationShape<C> shape,
            JsonNode usagePlaceholder,
            Duration keepAlive,
            JsonMapper json,
            SseSink sink) {
        try (generation) {
            send(sink, shape, shape.opening(), usagePlaceholder);
            sink.flush();
            while (!generation.done()) {
                Delta d = generation.next(keepAlive);
                if (d != null) {
                    send(sink, shape, shape.chunks(d), usagePlaceholder);
                } else if (!generation.done()) {
                    sink.comment("keep-alive");
                }
            }
            if (usagePlaceholder != null) {
                sink.data(shape.chunk(List.of(), json.valueToTree(ApiUsage.of(generation.usage()))));
            }
            sink.done();
        } catch (IOException e) {
            // the client went away; closing the generation (above) cancelled it
            LOG.debug("Stream client disconnected: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            fail(sink, e);
        }
    }

    /** One chunk per choice. */
    private static <C> void send(SseSink sink, GenerationShape<C> shape, List<C> choices, JsonNode usage)
            throws IOException {
        for (C choice : choices) {
            sink.data(shape.chunk(List.of(choice), usage));
        }
    }

    private static void fail(SseSink sink, RuntimeException e) {
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
            sink.data(mapped.body());
            sink.done();
        } catch (IOException io) {
            LOG.debug("Stream client disconnected before the error chunk: {}", io.toString());
        }
    }
}
