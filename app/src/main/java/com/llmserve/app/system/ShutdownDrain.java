package com.llmserve.app.system;

import com.llmserve.app.models.ModelRegistry;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The first thing to stop at shutdown, before the web server's graceful shutdown: from then on
 * {@link DrainFilter} answers new API requests 503, and this waits for the work in flight (at most
 * {@link ShutdownProperties#drainTimeout()}, then ends the rest with finish reason length). The
 * web server then waits for the answers to be written, and the models close last. Spring Boot has
 * already turned readiness to refusing traffic when the context began to close.
 */
final class ShutdownDrain implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(ShutdownDrain.class);

    private final ModelRegistry registry;
    private final ShutdownProperties properties;
    private final AtomicBoolean draining = new AtomicBoolean();
    private volatile boolean running;

    ShutdownDrain(ModelRegistry registry, ShutdownProperties properties) {
        this.registry = registry;
        this.properties = properties;
    }

    /** Whether new requests are to be refused. */
    boolean draining() {
        return draining.get();
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        if (!draining.compareAndSet(false, true)) {
            return;
        }
        LOG.info(
                "Shutting down: refusing new requests; generations in flight have up to {} s",
                properties.drainTimeout().toSeconds());
        try {
            int ended = registry.drain(properties.drainTimeout());
            if (ended > 0) {
                LOG.info("Drain limit reached: {} generations ended with finish reason length", ended);
            } else {
                LOG.info("Drained: every request in flight finished");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Above the web server's graceful shutdown (DEFAULT_PHASE - 1024): stops before it. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 512;
    }

    @Override
    public boolean isPauseable() {
        return false;
    }
}
