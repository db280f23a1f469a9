package com.llmserve.app.models;

import com.llmserve.app.resilience.Failover;
import com.llmserve.engine.gguf.GgufFile;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.timelimiter.TimeLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;

/**
 * What every served model has, whatever it answers: its replicas over one mapped file (the primary
 * replicas: one, or one per GPU it is placed on; and the CPU copy of a GPU model), a {@link Failover}
 * per GPU replica that routes new requests by its breaker (the GPU while the breaker is closed,
 * else another GPU replica, the CPU copy or a 503), the {@code admission} bulkhead every request
 * passes, the time limiter of its kind, and the order in which it all closes. Among the primaries
 * whose breakers let it through, a request goes to the one with the fewest requests in flight
 * (counted here, at admission, so a burst spreads at once rather than after the engines' next
 * statistics), among those to the one whose KV cache is emptiest (its engine's latest statistics:
 * long sequences weigh more than short ones), then to the first.
 *
 * @param <M> the loaded model
 * @param <E> its engine loop
 */
final class ReplicaSet<M extends AutoCloseable, E extends AutoCloseable> implements AutoCloseable {

    private final GgufFile file;
    private final List<Replica<M, E>> primaries;
    private final List<Failover> failovers;
    private final Replica<M, E> fallback;
    private final AtomicIntegerArray inFlight;
    private final Bulkhead admission;
    private final TimeLimiter timeLimiter;
    private final Function<E, CompletableFuture<?>> probe;
    private final ToDoubleFunction<E> kvUse;
    private final String description;

    /**
     * @param primaries   the replicas that serve while their devices are healthy: one on the CPU, or
     *                    one or more on GPUs
     * @param failovers   the routers of GPU primaries, one per primary in the same order; empty for
     *                    a model on the CPU (which needs none)
     * @param fallback    the CPU copy of a GPU model, or null
     * @param probe       one short request straight on a replica's engine (no admission, no routing):
     *                    the warm-up, and the failover's half-open probe
     * @param kvUse       the share of a replica engine's KV cache in use, 0 to 1 ({@link ServedKind#kvUse})
     * @param description where it runs, for logs and health
     */
    ReplicaSet(
            GgufFile file,
            List<Replica<M, E>> primaries,
            List<Failover> failovers,
            Replica<M, E> fallback,
            Bulkhead admission,
            TimeLimiter timeLimiter,
            Function<E, CompletableFuture<?>> probe,
            ToDoubleFunction<E> kvUse,
            String description) {
        if (primaries.isEmpty() || !(failovers.isEmpty() || failovers.size() == primaries.size())) {
            throw new IllegalArgumentException("a replica set needs primaries and none or one failover each: "
                    + primaries.size() + ", " + failovers.size());
        }
        this.file = file;
        this.primaries = List.copyOf(primaries);
        this.failovers = List.copyOf(failovers);
        this.fallback = fallback;
        this.inFlight = new AtomicIntegerArray(primaries.size());
        this.admission = admission;
        this.timeLimiter = timeLimiter;
        this.probe = probe;
        this.kvUse = kvUse;
        this.description = description;
    }

    /** The first primary: what every replica has alike (the model's shape, context) is read from it. */
    Replica<M, E> primary() {
        return primaries.getFirst();
    }

    /** The primaries first, then the CPU fallback when there is one. */
    List<Replica<M, E>> all() {
        if (fallback == null) {
            return primaries;
        }
        List<Replica<M, E>> all = new ArrayList<>(primaries);
        all.add(fallback);
        return List.copyOf(all);
    }

    /** The routers of the GPU primaries, in their order; empty on the CPU. */
    List<Failover> failovers() {
        return failovers;
    }

    /** Requests admitted to each primary and not yet settled, in the primaries' order. */
    int[] inFlight() {
        int[] n = new int[primaries.size()];
        for (int i = 0; i < n.length; i++) {
            n[i] = inFlight.get(i);
        }
        return n;
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
     * @throws com.llmserve.app.resilience.DeviceUnavailableException when the model's GPUs are shut off and it has no CPU copy
     */
    Ticket admit() {
        if (!admission.tryAcquirePermission()) {
            throw BulkheadFullException.createBulkheadFullException(admission);
        }
        try {
            if (failovers.isEmpty()) {
                return new Ticket(0, null);
            }
            int[] requests = inFlight();
            double[] kv = new double[requests.length];
            for (int i = 0; i < kv.length; i++) {
                kv[i] = kvUse.applyAsDouble(primaries.get(i).engine());
            }
            int[] order = leastLoadedFirst(requests, kv);
            for (int i : order) {
                if (failovers.get(i).tryPrimary()) {
                    return new Ticket(i, failovers.get(i));
                }
            }
            if (fallback != null) {
                return new Ticket(-1, null);
            }
            throw failovers.get(order[0]).unavailable();
        } catch (RuntimeException e) {
            admission.onComplete();
            throw e;
        }
    }

    /**
     * The primaries' indexes, least loaded first: by requests in flight, then by the share of the KV
     * cache in use, then in order.
     */
    static int[] leastLoadedFirst(int[] requests, double[] kvUse) {
        return IntStream.range(0, requests.length)
                .boxed()
                .sorted(Comparator.<Integer>comparingInt(i -> requests[i])
                        .thenComparingDouble(i -> kvUse[i])
                        .thenComparingInt(i -> i))
                .mapToInt(Integer::intValue)
                .toArray();
    }

    /**
     * One admitted request's accounts: its admission permit, given back once by {@link #close()}, and
     * on a guarded GPU the breaker's verdict, given once by the first of {@link #succeeded()},
     * {@link #failed} and {@link #noVerdict()}. Used by one thread at a time.
     */
    final class Ticket implements AutoCloseable {

        private final int primary;
        private final Replica<M, E> replica;
        private final Failover failover;
        private final long start = System.nanoTime();
        private boolean verdictGiven;
        private boolean released;

        /**
         * @param primary  the index of the primary it runs on, or -1 for the CPU fallback
         * @param failover the router whose breaker permission it holds, or null
         */
        private Ticket(int primary, Failover failover) {
            this.primary = primary;
            this.replica = primary < 0 ? fallback : primaries.get(primary);
            this.failover = failover;
            if (primary >= 0) {
                inFlight.incrementAndGet(primary);
            }
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
                if (failover != null) {
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
            boolean first = failover != null && !verdictGiven;
            verdictGiven = true;
            return first;
        }

        /** Gives the admission permit back. */
        @Override
        public void close() {
            if (!released) {
                released = true;
                if (primary >= 0) {
                    inFlight.decrementAndGet(primary);
                }
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
        failovers.forEach(Failover::close);
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
