package com.llmserve.engine.backend.cpu;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fixed pool sized to the cores the backend may use. {@link #forEach} splits {@code [0, n)} into
 * chunks that the caller and {@code threads - 1} workers take from a shared counter, so uneven
 * chunks (attention rows of different lengths) balance themselves.
 */
final class Parallel implements AutoCloseable {

    /** A body that handles items {@code [from, to)}. */
    @FunctionalInterface
    interface Range {
        void run(int from, int to);
    }

    private final int threads;
    private final ForkJoinPool pool;

    Parallel(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1: " + threads);
        }
        this.threads = threads;
        this.pool = threads == 1 ? null : new ForkJoinPool(threads - 1, p -> {
            var t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
            t.setName("llmserve-cpu-" + t.getPoolIndex());
            t.setDaemon(true);
            return t;
        }, null, false);
    }

    int threads() {
        return threads;
    }

    /** Runs {@code body} over {@code [0, n)} in chunks of at least {@code grain} items. */
    void forEach(int n, int grain, Range body) {
        if (n <= 0) {
            return;
        }
        int chunk = Math.max(grain, (n + threads * 4 - 1) / (threads * 4));
        int chunks = (n + chunk - 1) / chunk;
        if (pool == null || chunks == 1) {
            body.run(0, n);
            return;
        }
        AtomicInteger next = new AtomicInteger();
        Runnable worker = () -> {
            for (int c; (c = next.getAndIncrement()) < chunks; ) {
                body.run(c * chunk, Math.min(n, (c + 1) * chunk));
            }
        };
        int helpers = Math.min(threads - 1, chunks - 1);
        ForkJoinTask<?>[] tasks = new ForkJoinTask<?>[helpers];
        for (int i = 0; i < helpers; i++) {
            tasks[i] = pool.submit(worker);
        }
        Throwable failure = null;
        try {
            worker.run();
        } catch (Throwable t) {
            failure = t;
        }
        for (ForkJoinTask<?> t : tasks) {
            try {
                t.join();
            } catch (Throwable e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
        if (failure instanceof RuntimeException re) {
            throw re;
        } else if (failure instanceof Error err) {
            throw err;
        }
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }
}
