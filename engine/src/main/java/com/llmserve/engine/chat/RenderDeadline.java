package com.llmserve.engine.chat;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Interrupts the thread that renders a template once its time is up: Jinjava checks the
 * interrupt before each node it renders, so a template that loops without end stops there. The
 * interrupt is cleared again when the deadline closes, so the caller's thread goes on as it was.
 */
final class RenderDeadline implements AutoCloseable {

    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("chat-template-deadline").factory());

    private final Thread thread = Thread.currentThread();
    private final ScheduledFuture<?> alarm;
    private boolean closed;
    private boolean expired;

    RenderDeadline(Duration limit) {
        this.alarm = TIMER.schedule(this::expire, limit.toNanos(), TimeUnit.NANOSECONDS);
    }

    private synchronized void expire() {
        if (!closed) {
            expired = true;
            thread.interrupt();
        }
    }

    /** Whether the time ran out (then the rendering was interrupted). */
    synchronized boolean expired() {
        return expired;
    }

    @Override
    public void close() {
        boolean interrupted;
        synchronized (this) {
            closed = true;
            interrupted = expired;
        }
        alarm.cancel(false);
        if (interrupted) {
            Thread.interrupted(); // ours, not the caller's
        }
    }
}
