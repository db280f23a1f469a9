package com.llmserve.gpu;

import java.util.concurrent.atomic.AtomicBoolean;

/** An instantiated graph (CUDA / HIP graph exec): a captured sequence of work, replayed with one launch. */
public final class Graph implements AutoCloseable {

    private final Device device;
    private final long exec;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final LeakAlarm leakAlarm;

    Graph(Device device, long exec) {
        this.device = device;
        this.exec = exec;
        this.leakAlarm = new LeakAlarm(this, "Graph on " + device);
    }

    /** Replays the graph on {@code stream}; it reads and writes the buffers it was captured with. */
    public void launch(Stream stream) {
        if (stream.device() != device) throw new IllegalArgumentException("graph belongs to " + device);
        device.driver().launchGraph(exec, stream.handle());
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            leakAlarm.disarm();
            device.driver().destroyGraphExec(exec);
        }
    }
}
