package com.llmserve.app.openai;

import com.llmserve.app.generation.Delta;
import com.llmserve.app.generation.Generation;
import java.io.IOException;

/**
 * What one endpoint sends on a stream, event by event: chat and completions send chunks
 * ({@link ChunkEvents}), the Responses API its typed events. {@link GenerationStream} drives it
 * and owns the rest: headers, keep-alive comments, the client leaving, and a failure midway.
 */
public interface StreamEvents {

    /** The events before any output. */
    void open(SseSink sink) throws IOException;

    /** The events for new output of one choice. */
    void output(Delta delta, SseSink sink) throws IOException;

    /** The last events, once every choice has finished. */
    void close(Generation.Usage usage, SseSink sink) throws IOException;

    /** The events that tell of a failure after the stream started; nothing follows them. */
    void fail(ErrorEnvelope error, SseSink sink) throws IOException;
}
