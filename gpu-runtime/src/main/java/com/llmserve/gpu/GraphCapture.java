package com.llmserve.gpu;

/**
 * A stream in capture mode: launches and copies submitted to it are recorded, not run.
 * {@link #end()} turns them into a replayable {@link Graph}; closing without {@code end()} ends
 * the capture and discards it.
 */
public final class GraphCapture implements AutoCloseable {

    private final Stream stream;
    private boolean ended;

    GraphCapture(Stream stream) {
        this.stream = stream;
    }

    /** Ends the capture and instantiates the graph. */
    public Graph end() {
        ended = true;
        var driver = stream.device().driver();
        long graph = driver.endCapture(stream.handle());
        try {
            return new Graph(stream.device(), driver.instantiateGraph(graph));
        } finally {
            driver.destroyGraph(graph); // the executable graph keeps its own copy
        }
    }

    @Override
    public void close() {
        if (!ended) {
            ended = true;
            var driver = stream.device().driver();
            driver.destroyGraph(driver.endCapture(stream.handle()));
        }
    }
}
