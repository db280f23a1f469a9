package com.llmserve.app.openai;

import com.llmserve.app.generation.Delta;
import com.llmserve.app.generation.Generation;
import java.io.IOException;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.NullNode;

/**
 * The stream of chat and completions: one {@code data:} chunk per choice of the endpoint's
 * {@link GenerationShape}, the usage chunk when {@code stream_options.include_usage} asked for it,
 * an error chunk if generation fails midway, and {@code data: [DONE]} at the end either way.
 */
final class ChunkEvents<C> implements StreamEvents {

    private final GenerationShape<C> shape;
    private final JsonMapper json;
    /** The {@code usage} of every chunk but the last: JSON null with include_usage, else no field. */
    private final JsonNode usagePlaceholder;

    ChunkEvents(GenerationShape<C> shape, boolean includeUsage, JsonMapper json) {
        this.shape = shape;
        this.json = json;
        this.usagePlaceholder = includeUsage ? NullNode.getInstance() : null;
    }

    @Override
    public void open(SseSink sink) throws IOException {
        send(sink, shape.opening());
    }

    @Override
    public void output(Delta delta, SseSink sink) throws IOException {
        send(sink, shape.chunks(delta));
    }

    @Override
    public void close(Generation.Usage usage, SseSink sink) throws IOException {
        if (usagePlaceholder != null) {
            sink.data(shape.chunk(List.of(), json.valueToTree(ApiUsage.of(usage))));
        }
        sink.done();
    }

    @Override
    public void fail(ErrorEnvelope error, SseSink sink) throws IOException {
        sink.data(error);
        sink.done();
    }

    /** One chunk per choice. */
    private void send(SseSink sink, List<C> choices) throws IOException {
        for (C choice : choices) {
            sink.data(shape.chunk(List.of(choice), usagePlaceholder));
        }
    }
}
