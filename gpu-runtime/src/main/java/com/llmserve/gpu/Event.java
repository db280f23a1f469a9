package com.llmserve.gpu;

import java.util.concurrent.atomic.AtomicBoolean;

/** A device event: a point in a stream's work, for timing kernels and ordering streams. */
public final class Event implements AutoCloseable {

    private final Device device;
    private final long handle;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final LeakAlarm leakAlarm;

    Event(Device device, long handle) {
        this.device = device;
        this.handle = handle;
        this.leakAlarm = new LeakAlarm(this, "Event on " + device);
    }

    long handle() {
        return handle;
    }

    /** Blocks until the work recorded before this event has finished. */
    public void synchronize() {
        device.driver().synchronizeEvent(handle);
    }

    /** True when the work recorded before this event has finished; never blocks. */
    public boolean isDone() {
        return device.driver().eventDone(handle);
    }

    /** Device time from {@code start} to this event, in milliseconds (both must have completed). */
    public float elapsedMillisSince(Event start) {
        return device.driver().elapsedMillis(start.handle, handle);
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            leakAlarm.disarm();
            device.driver().destroyEvent(handle);
        }
    }
}
