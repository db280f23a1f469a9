package com.llmserve.gpu;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Exclusive use of one pooled stream, for one request or batch. Closing returns the stream to the
 * pool without waiting for its work: the next holder's work queues behind it.
 */
public final class StreamLease implements AutoCloseable {

    private final StreamPool pool;
    private final Stream stream;
    private final AtomicBoolean returned = new AtomicBoolean();

    StreamLease(StreamPool pool, Stream stream) {
        this.pool = pool;
        this.stream = stream;
    }

    public Stream stream() {
        if (returned.get()) throw new IllegalStateException("lease already returned");
        return stream;
    }

    @Override
    public void close() {
        if (returned.compareAndSet(false, true)) pool.giveBack(stream);
    }
}
