package com.llmserve.app.openai.responses;

import com.llmserve.app.generation.Delta;
import com.llmserve.app.generation.Generation;
import com.llmserve.app.openai.ErrorEnvelope;
import com.llmserve.app.openai.SseSink;
import com.llmserve.app.openai.StreamEvents;
import com.llmserve.app.openai.responses.ResponseObjects.Event;
import com.llmserve.app.openai.responses.ResponseObjects.Response;
import com.llmserve.app.openai.responses.ResponseObjects.ResponseEvent;
import java.io.IOException;
import java.util.List;

/**
 * The stream of a response, as OpenAI sends it: {@code response.created} and
 * {@code response.in_progress}, then per output item its {@code added}, deltas and {@code done}
 * events, then {@code response.completed} (or {@code response.incomplete}) with the whole response
 * and its usage. A failure midway ends it with {@code response.failed}. Each event is an SSE
 * {@code event:} line with its type and a {@code data:} line; no {@code [DONE]} follows.
 */
final class ResponseEvents implements StreamEvents {

    private final ResponseSnapshots snapshots;
    private final ResponseOutput output;

    ResponseEvents(ResponseSnapshots snapshots, ResponseOutput output) {
        this.snapshots = snapshots;
        this.output = output;
    }

    @Override
    public void open(SseSink sink) throws IOException {
        Response created = snapshots.created();
        send(sink, new ResponseEvent("response.created", output.nextSequence(), created));
        send(sink, new ResponseEvent("response.in_progress", output.nextSequence(), created));
    }

    @Override
    public void output(Delta delta, SseSink sink) throws IOException {
        List<Event> events = output.feed(delta);
        for (Event e : events) {
            send(sink, e);
        }
    }

    @Override
    public void close(Generation.Usage usage, SseSink sink) throws IOException {
        Response finished = snapshots.finished(output, ResponseObjects.Usage.of(usage, output.reasoningTokens()));
        String type = output.incomplete() ? "response.incomplete" : "response.completed";
        send(sink, new ResponseEvent(type, output.nextSequence(), finished));
    }

    @Override
    public void fail(ErrorEnvelope error, SseSink sink) throws IOException {
        Response failed = snapshots.failed(output, error.error().message());
        send(sink, new ResponseEvent("response.failed", output.nextSequence(), failed));
    }

    private static void send(SseSink sink, Event e) throws IOException {
        sink.event(e.type(), e);
    }
}
