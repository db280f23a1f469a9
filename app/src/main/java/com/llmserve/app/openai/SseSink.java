package com.llmserve.app.openai;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import tools.jackson.databind.json.JsonMapper;

/**
 * Writes server-sent events exactly as OpenAI frames them: {@code data: {json}} and a blank
 * line per event, {@code data: [DONE]} at the end, and comment lines ({@code : keep-alive}) that
 * clients ignore. Each event is flushed at once: a client measures time to first token by it.
 */
public final class SseSink {

    private final OutputStream out;
    private final JsonMapper json;

    public SseSink(OutputStream out, JsonMapper json) {
        this.out = out;
        this.json = json;
    }

    /** One {@code data:} event holding {@code chunk} as JSON. */
    public void data(Object chunk) throws IOException {
        write("data: " + json.writeValueAsString(chunk) + "\n\n");
    }

    /** A comment, which keeps the connection busy and shows whether the client is still there. */
    public void comment(String text) throws IOException {
        write(": " + text + "\n\n");
    }

    /** The end of the stream. */
    public void done() throws IOException {
        write("data: [DONE]\n\n");
    }

    private void write(String event) throws IOException {
        out.write(event.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
