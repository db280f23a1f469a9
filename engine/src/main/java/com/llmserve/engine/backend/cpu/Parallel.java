package com.llmserve.engine.backend.cpu;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A fixed crew of worker threads sized to the cores the backend may use. {@link #forEach} splits
 * {@code [0, n)} into chunks that the caller and the workers take from a shared counter, so uneven
 * chunks balance themselves.
 *
 * <p>A decode step is a few hundred short parallel operations separated by microseconds of serial
 * work, so waking parked threads for each would cost more than the work: workers spin for a while
 * after each job before they park, and the caller wakes only workers that parked.
 */
final class Parallel implements AutoCloseable {

    /** A body that handles items {@code [from, to)}. */
    @FunctionalInterface
    interface Range {
        void run(int from, int to);
    }

    /** How long an idle worker spins before it parks: covers the serial gaps of a decode step. */
    private static final long SPIN_NANOS = 200_000;

    private final int threads;
    private final Worker[] workers;
    private volatile boolean closed;

    /** The job being run; workers see a new one by its sequence number. */
    private volatile Job job;

    private static final class Job {
        final long sequence;
        final Range body;
        final int n;
        final int chunk;
        final int chunks;
        final AtomicInteger next = new AtomicInteger();
        /** Workers inside {@link #work}; a worker that arrives after the last chunk was taken finds nothing to do. */
        final AtomicInteger active = new AtomicInteger();

        volatile Throwable failure;

        Job(long sequence, Range body, int n, int chunk, int chunks) {
            this.sequence = sequence;
            this.body = body;
            this.n = n;
            this.chunk = chunk;
            this.chunks = chunks;
        }

        void work() {
            try {
                for (int c; (c = next.getAndIncrement()) < chunks; ) {
                    body.run(c * chunk, Math.min(n, (c + 1) * chunk));
                }
            } catch (Throwable t) {
                failure = t;
                next.set(chunks);
            }
        }
    }

    private final class Worker extends Thread {
        private volatile boolean parked;
        private long seen;

        Worker(int index) {
            super("llmserve-cpu-" + index);
            setDaemon(true);
        }

        @Override
        public void run() {
            while (!closed) {
                Job j = job;
                if (j != null && j.sequence != seen) {
                    seen = j.sequence;
                    j.active.incrementAndGet();
                    j.work();
                    j.active.decrementAndGet();
                    continue;
                }
                long spinUntil = System.nanoTime() + SPIN_NANOS;
                while (!closed && (job == null || job.sequence == seen) && System.nanoTime() < spinUntil) {
                    Thread.onSpinWait();
                }
                if (!closed && (job == null || job.sequence == seen)) {
                    parked = true;
                    if (job == null || job.sequence == seen) {
                        LockSupport.park(this);
                    }
                    parked = false;
                }
            }
        }
    }

    private long sequence;

    Parallel(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1: " + threads);
        }
        this.threads = threads;
        this.workers = new Worker[threads - 1];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new Worker(i + 1);
            workers[i].start();
        }
    }

    int threads() {
        return threads;
    }

    /**
     * Runs {@code body} over {@code [0, n)} in chunks of at least {@code grain} items and returns
     * when all are done. Called by one thread at a time (the engine loop).
     */
    void forEach(int n, int grain, Range body) {
        forEach(n, grain, 4, body);
    }

    /**
     * As {@link #forEach(int, int, Range)} in up to {@code perThread} chunks per thread: more
     * chunks cost a counter update each and shorten the wait for the last one to finish.
     */
    void forEach(int n, int grain, int perThread, Range body) {
        if (n <= 0) {
            return;
        }
        int chunk = Math.max(grain, (n + threads * perThread - 1) / (threads * perThread));
        int chunks = (n + chunk - 1) / chunk;
        if (workers.length == 0 || chunks == 1) {
            body.run(0, n);
            return;
        }
        Job j = new Job(++sequence, body, n, chunk, chunks);
        job = j;
        for (Worker w : workers) {
            if (w.parked) {
                LockSupport.unpark(w);
            }
        }
        // the caller works too; once it runs out of chunks every chunk is taken, and only the
        // workers still inside one are waited for (a descheduled worker that never started is not)
        j.work();
        while (j.active.get() > 0) {
            Thread.onSpinWait();
        }
        Throwable failure = j.failure;
        if (failure instanceof RuntimeException re) {
            throw re;
        } else if (failure instanceof Error err) {
            throw err;
        } else if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Worker w : workers) {
            LockSupport.unpark(w);
        }
    }
}
