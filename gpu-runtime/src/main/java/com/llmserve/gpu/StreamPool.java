package com.llmserve.gpu;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The streams of one device, created on demand up to {@link DeviceOptions#maxStreams()} and
 * leased one request or batch at a time. Returned streams are reused most-recent-first, so a
 * light load keeps touching the same few streams and their warm BLAS handles.
 */
public final class StreamPool {

    private final Device device;
    private final Semaphore permits;
    private final int capacity;
    private final ConcurrentLinkedDeque<Stream> idle = new ConcurrentLinkedDeque<>();
    private final List<Stream> created = new ArrayList<>();
    private volatile boolean closed;

    StreamPool(Device device, DeviceOptions options) {
        this.device = device;
        this.capacity = options.maxStreams();
        this.permits = new Semaphore(capacity, true);
    }

    /** Leases a stream, waiting while all {@link #capacity()} streams are leased. */
    public StreamLease lease() throws InterruptedException {
        permits.acquire();
        return leaseWithPermit();
    }

    /** Leases a stream if one frees up within {@code timeout}. */
    public Optional<StreamLease> tryLease(Duration timeout) throws InterruptedException {
        if (!permits.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS)) return Optional.empty();
        return Optional.of(leaseWithPermit());
    }

    public int capacity() {
        return capacity;
    }

    /** Streams created so far (at most the capacity). */
    public int created() {
        synchronized (created) {
            return created.size();
        }
    }

    /** Streams leased right now. */
    public int leased() {
        return capacity - permits.availablePermits();
    }

    private StreamLease leaseWithPermit() {
        try {
            if (closed) throw new IllegalStateException(device + " is closed");
            Stream stream = idle.pollFirst();
            if (stream == null) {
                stream = new Stream(device, device.driver().createStream());
                synchronized (created) {
                    created.add(stream);
                }
            }
            return new StreamLease(this, stream);
        } catch (RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    void giveBack(Stream stream) {
        idle.addFirst(stream);
        permits.release();
    }

    /** Destroys every stream; the device has synchronised first, so none has work left. */
    void close() {
        closed = true;
        synchronized (created) {
            RuntimeException first = null;
            for (Stream s : created) {
                try {
                    s.destroy();
                } catch (RuntimeException e) {
                    if (first == null) first = e;
                    else first.addSuppressed(e);
                }
            }
            created.clear();
            idle.clear();
            if (first != null) throw first;
        }
    }
}
