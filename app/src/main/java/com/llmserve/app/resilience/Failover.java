package com.llmserve.app.resilience;

import com.llmserve.app.gpu.DeviceFaults;
import com.llmserve.app.gpu.DeviceUser;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.event.CircuitBreakerOnStateTransitionEvent;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes the new requests of one model placed on a GPU by the state of its circuit breaker.
 *
 * <ul>
 *   <li><b>Closed</b>: requests run on the GPU and report how they ended. A failed forward pass
 *       fails every request it carried with the same exception; it is one device error and counts
 *       once, so one bad step with many sequences does not open the breaker by itself, while
 *       failures step after step do.</li>
 *   <li><b>Open</b> (or forced open after a lost context): new requests go to the model's CPU copy,
 *       or are refused with 503 and {@code Retry-After} when it has none. Requests already on the
 *       GPU end as the GPU lets them (a failing device fails them).</li>
 *   <li><b>Half-open</b> (the breaker moves there by itself once its wait is over): user requests
 *       stay on the CPU while short synthetic probes run on the GPU, as many as the breaker lets
 *       through; enough successes close it and traffic returns to the GPU, a failure opens it
 *       again. Probing with our own requests keeps users off a device that may still be broken, and
 *       brings the device back even when no traffic arrives.</li>
 * </ul>
 * Every transition is logged and, through resilience4j's meters, exported
 * ({@code resilience4j.circuitbreaker.state}).
 */
public final class Failover implements DeviceUser, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Failover.class);
    /** What a client is told to wait while probes run: they take moments. */
    private static final Duration PROBING_RETRY_AFTER = Duration.ofSeconds(1);

    /** Where a new request runs. */
    public enum Route {
        /** On the GPU; the caller holds a breaker permission and settles it with one of the outcome methods. */
        PRIMARY,
        /** On the CPU copy. */
        FALLBACK
    }

    /** Sends one short request to the model on the GPU; completes when it generated, exceptionally with the device's error. */
    @FunctionalInterface
    public interface Probe {
        CompletableFuture<?> run();
    }

    private final String model;
    private final String device;
    private final List<String> gpus;
    private final CircuitBreaker breaker;
    private final boolean fallback;
    private final Probe probe;
    private final Duration probeTimeout;
    private final DeviceFaults faults;
    private final Runnable onClose;
    private final AtomicReference<Throwable> lastFailure = new AtomicReference<>();
    private final AtomicBoolean probing = new AtomicBoolean();
    private volatile long openedAtNanos = System.nanoTime();
    private volatile boolean closed;

    Failover(
            String model,
            String device,
            List<String> gpus,
            CircuitBreaker breaker,
            boolean fallback,
            Probe probe,
            Duration probeTimeout,
            DeviceFaults faults,
            Runnable onClose) {
        if (!breaker.getCircuitBreakerConfig().isAutomaticTransitionFromOpenToHalfOpenEnabled()) {
            // requests never ask an open breaker for permission (they go to the CPU), so only this makes it probe
            throw new IllegalStateException("circuit breaker " + breaker.getName()
                    + ": automatic-transition-from-open-to-half-open-enabled must be true");
        }
        this.model = model;
        this.device = device;
        this.gpus = List.copyOf(gpus);
        this.breaker = breaker;
        this.fallback = fallback;
        this.probe = probe;
        this.probeTimeout = probeTimeout;
        this.faults = faults;
        this.onClose = onClose;
        breaker.getEventPublisher().onStateTransition(this::onTransition);
        this.gpus.forEach(gpu -> faults.register(gpu, this));
    }

    /**
     * Where a new request runs.
     *
     * @throws DeviceUnavailableException when the GPU is shut off and there is no CPU copy
     */
    public Route route() {
        if (tryPrimary()) {
            return Route.PRIMARY;
        }
        if (fallback) {
            return Route.FALLBACK;
        }
        throw unavailable();
    }

    /**
     * Whether a new request may run on the GPU now: true with a breaker permission the caller
     * settles with one of the outcome methods, false while the breaker keeps users off the device.
     */
    public boolean tryPrimary() {
        CircuitBreaker.State state = breaker.getState();
        boolean passes = state == CircuitBreaker.State.CLOSED
                || state == CircuitBreaker.State.METRICS_ONLY
                || state == CircuitBreaker.State.DISABLED;
        return passes && breaker.tryAcquirePermission();
    }

    /** The refusal of a request this device cannot take now, with how long to wait. */
    public DeviceUnavailableException unavailable() {
        return new DeviceUnavailableException(model, device, retryAfter(breaker.getState()));
    }

    /** A request on the GPU ended as it should. */
    public void succeeded(long nanos) {
        breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
    }

    /** A request on the GPU failed with the device's (or the backend's) error. */
    public void failed(long nanos, Throwable error) {
        report(error);
        if (lastFailure.getAndSet(error) == error) {
            breaker.releasePermission(); // the same failed forward pass, already counted
            return;
        }
        breaker.onError(nanos, TimeUnit.NANOSECONDS, error);
    }

    /** A request on the GPU ended in a way that says nothing of the device (timed out, cancelled by its client). */
    public void noVerdict() {
        breaker.releasePermission();
    }

    /**
     * The GPU's engine refused a request. Whether that counts is the breaker configuration's call:
     * its {@code ignore-exceptions} hold the client's errors (a full queue, a prompt too long).
     */
    public void refused(Throwable error) {
        breaker.onError(0, TimeUnit.NANOSECONDS, error);
    }

    private Duration retryAfter(CircuitBreaker.State state) {
        if (state == CircuitBreaker.State.HALF_OPEN) {
            return PROBING_RETRY_AFTER;
        }
        long waitMillis = breaker.getCircuitBreakerConfig()
                .getWaitIntervalFunctionInOpenState()
                .apply(1);
        long left = waitMillis - (System.nanoTime() - openedAtNanos) / 1_000_000;
        return Duration.ofMillis(Math.max(PROBING_RETRY_AFTER.toMillis(), left));
    }

    private void onTransition(CircuitBreakerOnStateTransitionEvent event) {
        if (closed) {
            return;
        }
        CircuitBreaker.State to = event.getStateTransition().getToState();
        switch (to) {
            case OPEN -> {
                openedAtNanos = System.nanoTime();
                LOG.warn(
                        "Circuit breaker of model '{}' on {} opened ({}, failure rate {}%): new requests {} until probes succeed",
                        model,
                        device,
                        event.getStateTransition(),
                        String.format(Locale.ROOT, "%.0f", breaker.getMetrics().getFailureRate()),
                        fallback ? "run on its CPU copy" : "are refused with 503");
            }
            case HALF_OPEN -> {
                LOG.info(
                        "Circuit breaker of model '{}' on {} is half-open: probing the device with {} request(s)",
                        model,
                        device,
                        breaker.getCircuitBreakerConfig().getPermittedNumberOfCallsInHalfOpenState());
                startProbes();
            }
            case CLOSED ->
                LOG.info(
                        "Circuit breaker of model '{}' on {} closed: new requests run on the device again",
                        model,
                        device);
            case FORCED_OPEN ->
                LOG.error(
                        "Circuit breaker of model '{}' on {} forced open: new requests {} until the service restarts",
                        model,
                        device,
                        fallback ? "run on its CPU copy" : "are refused with 503");
            default -> LOG.info("Circuit breaker of model '{}' on {}: {}", model, device, event.getStateTransition());
        }
    }

    private void startProbes() {
        if (!probing.compareAndSet(false, true)) {
            return;
        }
        Thread.ofVirtual().name("llmserve-probe-" + model).start(() -> {
            try {
                probeAll();
            } finally {
                probing.set(false);
            }
        });
    }

    /**
     * Runs probes while the breaker is half-open, one at a time, each its own call (never merged
     * with another as a shared step failure is): the breaker leaves half-open once it has recorded
     * as many as it permits. A probe that says nothing (interrupted) gives its permission back, so
     * another takes its place; the attempts are bounded, and the configuration's
     * {@code max-wait-duration-in-half-open-state} reopens a breaker left waiting.
     */
    private void probeAll() {
        int permitted = breaker.getCircuitBreakerConfig().getPermittedNumberOfCallsInHalfOpenState();
        for (int attempt = 0;
                attempt < 3 * permitted && !closed && breaker.getState() == CircuitBreaker.State.HALF_OPEN;
                attempt++) {
            if (!breaker.tryAcquirePermission()) {
                return; // every permitted probe is out or recorded: the breaker decides
            }
            long start = System.nanoTime();
            CompletableFuture<?> result = null;
            try {
                result = probe.run();
                result.get(probeTimeout.toMillis(), TimeUnit.MILLISECONDS);
                succeeded(System.nanoTime() - start);
            } catch (ExecutionException e) {
                probeFailed(System.nanoTime() - start, e.getCause() != null ? e.getCause() : e);
            } catch (TimeoutException e) {
                result.cancel(true);
                probeFailed(System.nanoTime() - start, e);
            } catch (InterruptedException e) {
                breaker.releasePermission();
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                probeFailed(System.nanoTime() - start, e); // the engine refused the probe: the device is not back
            }
        }
    }

    private void probeFailed(long nanos, Throwable error) {
        report(error);
        breaker.onError(nanos, TimeUnit.NANOSECONDS, error);
    }

    /**
     * Hands a device error to the fault record of each GPU the model runs on: a model split over
     * several cannot tell whose context a sticky error lost, and a lost one stalls the group's
     * collectives anyway, so each is marked and the restart that follows cures whichever it was.
     */
    private void report(Throwable error) {
        gpus.forEach(gpu -> faults.report(gpu, error));
    }

    @Override
    public String model() {
        return model;
    }

    public String device() {
        return device;
    }

    public CircuitBreaker breaker() {
        return breaker;
    }

    @Override
    public String breakerState() {
        return breaker.getState().name();
    }

    @Override
    public boolean hasFallback() {
        return fallback;
    }

    @Override
    public boolean blocked() {
        CircuitBreaker.State s = breaker.getState();
        return !fallback
                && (s == CircuitBreaker.State.OPEN
                        || s == CircuitBreaker.State.FORCED_OPEN
                        || s == CircuitBreaker.State.HALF_OPEN);
    }

    /** No probe can succeed on a lost context: stop probing until the restart. */
    @Override
    public void deviceLost(String reason) {
        if (breaker.getState() != CircuitBreaker.State.FORCED_OPEN) {
            breaker.transitionToForcedOpenState();
        }
    }

    /** Stops routing and probing for a model being closed. */
    @Override
    public void close() {
        closed = true;
        gpus.forEach(gpu -> faults.unregister(gpu, this));
        onClose.run();
    }
}
