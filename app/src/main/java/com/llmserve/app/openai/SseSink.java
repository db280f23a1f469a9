package com.llmserve.app.openai;

import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes server-sent events exactly as OpenAI frames them: {@code data: {json}} and a blank
 * line per event, {@code data: [DONE]} at the end of chat and completion streams, named events
 * ({@code event: response.created}) for the Responses API, and comment lines
 * ({@code : keep-alive}) that clients ignore. Each event is flushed at once: a client measures
 * time to first token by it.
 */
public final class SseSink {

    private final OutputStream out;
    private final JsonMapper json;
    private final Flushable flusher;

    /**
     * @param flusher pushes what was written to the client (the servlet response's flushBuffer:
     *                the stream Spring hands a streaming body does not flush)
     */
    SseSink(OutputStream out, JsonMapper json, Flushable flusher) {
        this.out = out;
        this.json = json;
        this.flusher = flusher;
    }

    /** One {@code data:} event holding {@code chunk} as JSON. */
    public void data(Object chunk) throws IOException {
        write("data: " + json.writeValueAsString(chunk) + "\n\n");
    }

    /** One event named {@code type} holding {@code payload} as JSON. */
    public void event(String type, Object payload) throws IOException {
        write("event: " + type + "\ndata: " + json.writeValueAsString(payload) + "\n\n");
    }

    /** A comment, which keeps the connection busy and shows whether the client is still there. */
    void comment(String text) throws IOException {
        write(": " + text + "\n\n");
    }

    /** Sends the response headers now, before any event, so the client knows its request was accepted. */
    void flush() throws IOException {
        flusher.flush();
    }

    /** The end of a chat or completion stream. */
    void done() throws IOException {
        write("data: [DONE]\n\n");
    }

    private void write(String event) throws IOException {
        out.write(event.getBytes(StandardCharsets.UTF_8));
        flusher.flush();
    }
}
