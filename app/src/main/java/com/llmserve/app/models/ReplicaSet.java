package com.llmserve.app.models;

import com.llmserve.app.resilience.Failover;
import com.llmserve.engine.gguf.GgufFile;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.timelimiter.TimeLimiter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * What every served model has, whatever it answers: its replicas (the primary, and the CPU copy of
 * a GPU model) over one mapped file, the {@link Failover} that routes each new request of a model
 * on a GPU (the GPU while its breaker is closed, else the CPU copy or a 503), the {@code admission}
 * bulkhead every request passes, the time limiter of its kind, and the order in which it all closes.
 *
 * @param <M> the loaded model
 * @param <E> its engine loop
 */
final class ReplicaSet<M extends AutoCloseable, E extends AutoCloseable> implements AutoCloseable {

    private final GgufFile file;
    private final Replica<M, E> primary;
    private final Replica<M, E> fallback;
    private final Failover failover;
    private final Bulkhead admission;
    private final TimeLimiter timeLimiter;
    private final Function<E, CompletableFuture<?>> probe;
    private final String description;

    /**
     * @param fallback    the CPU copy of a GPU model, or null
     * @param failover    the router of a GPU model, or null for a model on the CPU (which needs none)
     * @param probe       one short request straight on a replica's engine (no admission, no routing):
     *                    the warm-up, and the failover's half-open probe
     * @param description where it runs, for logs and health
     */
    ReplicaSet(
            GgufFile file,
            Replica<M, E> primary,
            Replica<M, E> fallback,
            Failover failover,
            Bulkhead admission,
            TimeLimiter timeLimiter,
            Function<E, CompletableFuture<?>> probe,
            String description) {
        this.file = file;
        this.primary = primary;
        this.fallback = fallback;
        this.failover = failover;
        this.admission = admission;
        this.timeLimiter = timeLimiter;
        this.probe = probe;
        this.description = description;
    }

    Replica<M, E> primary() {
        return primary;
    }

    /** The primary first, then the CPU fallback when there is one. */
    List<Replica<M, E>> all() {
        return fallback == null ? List.of(primary) : List.of(primary, fallback);
    }

    Optional<Failover> failover() {
        return Optional.ofNullable(failover);
    }

    String description() {
        return description;
    }

    TimeLimiter timeLimiter() {
        return timeLimiter;
    }

    /** The time limiter's timeout: the longest a request of this model may wait and run. */
    Duration timeout() {
        return timeLimiter.getTimeLimiterConfig().getTimeoutDuration();
    }

    /** A count summed over the replicas' engines. */
    long sum(ToLongFunction<E> count) {
        return all().stream().mapToLong(r -> count.applyAsLong(r.engine())).sum();
    }

    /**
     * Admits a new request and picks its replica. The caller holds an admission permit and, on a
     * guarded GPU, a breaker permission, until it settles the ticket.
     *
     * @throws BulkheadFullException when the service already has its most requests in flight
     * @throws com.llmserve.app.resilience.DeviceUnavailableException when the model's GPU is shut off and it has no CPU copy
     */
    Ticket admit() {
        if (!admission.tryAcquirePermission()) {
            throw BulkheadFullException.createBulkheadFullException(admission);
        }
        try {
            Failover.Route route = failover == null ? Failover.Route.PRIMARY : failover.route();
            return route == Failover.Route.PRIMARY
                    ? new Ticket(primary, failover != null)
                    : new Ticket(fallback, false);
        } catch (RuntimeException e) {
            admission.onComplete();
            throw e;
        }
    }

    /**
     * One admitted request's accounts: its admission permit, given back once by {@link #close()}, and
     * on a guarded GPU the breaker's verdict, given once by the first of {@link #succeeded()},
     * {@link #failed} and {@link #noVerdict()}. Used by one thread at a time.
     */
    final class Ticket implements AutoCloseable {

        private final Replica<M, E> replica;
        private final boolean guarded;
        private final long start = System.nanoTime();
        private boolean verdictGiven;
        private boolean released;

        private Ticket(Replica<M, E> replica, boolean guarded) {
            this.replica = replica;
            this.guarded = guarded;
        }

        /**
         * Hands the request to the replica's engine. A refusal gives the permit back and tells the
         * breaker, whose {@code ignore-exceptions} decide whether it counts (a full queue does not).
         */
        <T> T submit(Function<E, T> submission) {
            try {
                return submission.apply(replica.engine());
            } catch (RuntimeException e) {
                close();
                if (guarded) {
                    failover.refused(e);
                }
                throw e;
            }
        }

        /** The request ran as it should on its device. */
        void succeeded() {
            if (verdict()) {
                failover.succeeded(System.nanoTime() - start);
            }
        }

        /** The device (or its backend) failed the request. */
        void failed(Throwable error) {
            if (verdict()) {
                failover.failed(System.nanoTime() - start, error);
            }
        }

        /** The request ended in a way that says nothing of the device: timed out, or cancelled. */
        void noVerdict() {
            if (verdict()) {
                failover.noVerdict();
            }
        }

        private boolean verdict() {
            boolean first = guarded && !verdictGiven;
            verdictGiven = true;
            return first;
        }

        /** Gives the admission permit back. */
        @Override
        public void close() {
            if (!released) {
                released = true;
                admission.onComplete();
            }
        }
    }

    /** One short request through each replica, so JIT compilation and first page faults happen before clients arrive. */
    void warmUp(Duration limit) throws Exception {
        for (Replica<M, E> r : all()) {
            probe.apply(r.engine()).get(limit.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Stops routing, then the loops (they end what is running and stop touching the models), then the models, backends and file. */
    @Override
    public void close() {
        if (failover != null) {
            failover.close();
        }
        try {
            for (Replica<M, E> r : all()) {
                closeUnchecked(r.engine());
            }
            for (Replica<M, E> r : all()) {
                closeUnchecked(r.model());
                r.backend().close();
            }
        } finally {
            file.close();
        }
    }

    /** Engines and models close without checked exceptions; their type only says AutoCloseable. */
    private static void closeUnchecked(AutoCloseable c) {
        try {
            c.close();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
