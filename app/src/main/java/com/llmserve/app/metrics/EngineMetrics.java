package com.llmserve.app.metrics;

import com.llmserve.app.models.ModelObservers;
import com.llmserve.engine.sched.EmbeddingEngine;
import com.llmserve.engine.sched.EngineObserver;
import com.llmserve.engine.sched.EngineStats;
import com.llmserve.engine.sched.FinishReason;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The meters of every model replica, tagged {@code model} and {@code device} (ids from the
 * configuration and the devices opened: few and bounded). Gauges and counters read the engine's
 * live state; latencies and batch sizes come from the engine's observer callbacks, which run on the
 * engine thread and so only record into pre-registered meters. Histograms carry SLO buckets chosen
 * for interactive serving (a name's buckets can be replaced with
 * {@code management.metrics.distribution.slo.<name>}).
 *
 * <p>Replicas start after the registry is bound (models load once the context runs); one created
 * earlier gets its meters at binding, and its observer records nothing until then. A model that
 * leaves the service takes its meters with it ({@link #released}).
 */
public final class EngineMetrics implements MeterBinder, ModelObservers {

    static final Duration[] TTFT_SLOS = millis(25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000);
    static final Duration[] INTER_TOKEN_SLOS = millis(5, 10, 25, 50, 100, 250, 500, 1000);
    static final Duration[] DURATION_SLOS =
            millis(250, 500, 1000, 2500, 5000, 10000, 30000, 60000, 120000, 300000, 600000);
    static final Duration[] QUEUE_SLOS = millis(5, 25, 100, 250, 500, 1000, 2500, 5000, 10000, 30000);
    static final Duration[] STEP_SLOS = millis(5, 10, 25, 50, 100, 250, 500, 1000);
    static final double[] BATCH_SIZE_SLOS = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    static final double[] BATCH_TOKEN_SLOS = {1, 4, 16, 64, 128, 256, 512, 1024, 2048, 4096};

    /** A replica's meters, registered with {@link #register} once there is a registry. */
    private interface ReplicaMeters {
        List<Meter> register(MeterRegistry registry);
    }

    private final Map<String, List<ReplicaMeters>> unbound = new HashMap<>();
    private final Map<String, List<Meter>> registered = new HashMap<>();
    private MeterRegistry registry;

    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        if (this.registry != null) {
            return; // the observers feed one registry (Spring Boot binds to its one, possibly composite, registry)
        }
        this.registry = registry;
        unbound.forEach((model, replicas) -> replicas.forEach(r -> register(model, r)));
        unbound.clear();
    }

    private synchronized void whenBound(String model, ReplicaMeters meters) {
        if (registry != null) {
            register(model, meters);
        } else {
            unbound.computeIfAbsent(model, m -> new ArrayList<>()).add(meters);
        }
    }

    private void register(String model, ReplicaMeters meters) {
        registered.computeIfAbsent(model, m -> new ArrayList<>()).addAll(meters.register(registry));
    }

    @Override
    public synchronized void released(String model) {
        unbound.remove(model);
        List<Meter> meters = registered.remove(model);
        if (meters != null) {
            meters.forEach(registry::remove);
        }
    }

    @Override
    public EngineObserver completion(String model, String device, Supplier<EngineStats> stats) {
        CompletionMeters meters = new CompletionMeters(Tags.of("model", model, "device", device), stats);
        whenBound(model, meters::register);
        return meters;
    }

    @Override
    public EmbeddingEngine.EmbeddingObserver embedding(
            String model, String device, LongSupplier inputsEmbedded, IntSupplier waitingRequests) {
        EmbeddingMeters meters =
                new EmbeddingMeters(Tags.of("model", model, "device", device), inputsEmbedded, waitingRequests);
        whenBound(model, meters::register);
        return meters;
    }

    /** The meters of one completion replica, and its engine's observer. */
    private static final class CompletionMeters implements EngineObserver {

        private final Tags tags;
        private final Supplier<EngineStats> stats;
        private volatile Recorders recorders;

        private record Recorders(
                Timer ttft,
                Timer interToken,
                Timer queue,
                Map<FinishReason, Timer> duration,
                DistributionSummary batchSize,
                DistributionSummary batchTokens,
                Timer step) {}

        CompletionMeters(Tags tags, Supplier<EngineStats> stats) {
            this.tags = tags;
            this.stats = stats;
        }

        List<Meter> register(MeterRegistry r) {
            List<Meter> meters = new ArrayList<>();
            meters.add(gauge(
                    r,
                    "llm.requests.waiting",
                    "requests",
                    "Requests queued for admission to the engine",
                    EngineStats::waitingRequests));
            meters.add(gauge(
                    r,
                    "llm.requests.waiting.capacity",
                    "requests",
                    "The most requests that may queue (llmserve.engine.max-waiting); more are answered 429",
                    EngineStats::waitingCapacity));
            meters.add(gauge(
                    r,
                    "llm.requests.running",
                    "sequences",
                    "Sequences admitted and generating (a request with n choices runs n)",
                    EngineStats::runningSequences));
            meters.add(gauge(
                    r,
                    "llm.kv.blocks.used",
                    "blocks",
                    "KV cache blocks holding live sequences",
                    EngineStats::kvBlocksUsed));
            meters.add(gauge(
                    r,
                    "llm.kv.blocks.total",
                    "blocks",
                    "KV cache blocks of the engine's pool",
                    EngineStats::kvBlocksTotal));
            meters.add(counter(
                    r,
                    "llm.prefix.cache.hits",
                    "blocks",
                    "KV blocks a new sequence found in the prefix cache",
                    EngineStats::prefixCacheHits));
            meters.add(counter(
                    r,
                    "llm.prefix.cache.queries",
                    "blocks",
                    "KV blocks looked up in the prefix cache",
                    EngineStats::prefixCacheQueries));
            meters.add(counter(
                    r,
                    "llm.tokens.prompt",
                    "tokens",
                    "Prompt tokens computed (those found in the prefix cache excluded)",
                    EngineStats::promptTokens));
            meters.add(counter(r, "llm.tokens.generated", "tokens", "Tokens generated", EngineStats::generatedTokens));
            meters.add(counter(
                    r,
                    "llm.preemptions",
                    "sequences",
                    "Sequences preempted for lack of KV blocks, to be recomputed",
                    EngineStats::preemptions));
            Map<FinishReason, Timer> duration = new EnumMap<>(FinishReason.class);
            for (FinishReason reason : FinishReason.values()) {
                duration.put(
                        reason,
                        Timer.builder("llm.request.duration")
                                .description(
                                        "Time from a request's submission to the end of one of its choices, by how the choice ended")
                                .tags(tags)
                                .tag("outcome", reason.name().toLowerCase(Locale.ROOT))
                                .serviceLevelObjectives(DURATION_SLOS)
                                .register(r));
            }
            meters.addAll(duration.values());
            Recorders recorded = new Recorders(
                    Timer.builder("llm.request.ttft")
                            .description("Time from a request's submission to a choice's first token")
                            .tags(tags)
                            .serviceLevelObjectives(TTFT_SLOS)
                            .register(r),
                    Timer.builder("llm.request.inter.token")
                            .description("Time between consecutive tokens of a choice")
                            .tags(tags)
                            .serviceLevelObjectives(INTER_TOKEN_SLOS)
                            .register(r),
                    Timer.builder("llm.request.queue")
                            .description("Time a request waited before its first forward pass")
                            .tags(tags)
                            .serviceLevelObjectives(QUEUE_SLOS)
                            .register(r),
                    duration,
                    DistributionSummary.builder("llm.batch.size")
                            .baseUnit("sequences")
                            .description("Sequences in one forward pass (one engine iteration)")
                            .tags(tags)
                            .serviceLevelObjectives(BATCH_SIZE_SLOS)
                            .register(r),
                    DistributionSummary.builder("llm.batch.tokens")
                            .baseUnit("tokens")
                            .description("Tokens in one forward pass: decodes plus prefill chunks")
                            .tags(tags)
                            .serviceLevelObjectives(BATCH_TOKEN_SLOS)
                            .register(r),
                    Timer.builder("llm.step.duration")
                            .description("Time of one engine iteration's forward pass and sampling")
                            .tags(tags)
                            .serviceLevelObjectives(STEP_SLOS)
                            .register(r));
            meters.addAll(List.of(
                    recorded.ttft(),
                    recorded.interToken(),
                    recorded.queue(),
                    recorded.batchSize(),
                    recorded.batchTokens(),
                    recorded.step()));
            recorders = recorded;
            return meters;
        }

        private Meter gauge(
                MeterRegistry r, String name, String unit, String description, ToDoubleFunction<EngineStats> value) {
            return Gauge.builder(name, stats, s -> value.applyAsDouble(s.get()))
                    .baseUnit(unit)
                    .description(description)
                    .tags(tags)
                    .strongReference(true)
                    .register(r);
        }

        private Meter counter(
                MeterRegistry r, String name, String unit, String description, ToDoubleFunction<EngineStats> value) {
            return FunctionCounter.builder(name, stats, s -> value.applyAsDouble(s.get()))
                    .baseUnit(unit)
                    .description(description)
                    .tags(tags)
                    .register(r);
        }

        @Override
        public void onStep(int sequences, int tokens, Duration elapsed) {
            Recorders m = recorders;
            if (m != null) {
                m.batchSize().record(sequences);
                m.batchTokens().record(tokens);
                m.step().record(elapsed);
            }
        }

        @Override
        public void onFirstToken(Duration ttft) {
            Recorders m = recorders;
            if (m != null) {
                m.ttft().record(ttft);
            }
        }

        @Override
        public void onInterToken(Duration gap) {
            Recorders m = recorders;
            if (m != null) {
                m.interToken().record(gap);
            }
        }

        @Override
        public void onChoiceFinished(
                FinishReason reason, Duration total, Duration queued, int promptTokens, int generatedTokens) {
            Recorders m = recorders;
            if (m != null) {
                m.duration().get(reason).record(total);
                m.queue().record(queued);
            }
        }
    }

    /** The meters of one embedding replica, and its loop's observer. */
    private static final class EmbeddingMeters implements EmbeddingEngine.EmbeddingObserver {

        private final Tags tags;
        private final LongSupplier inputsEmbedded;
        private final IntSupplier waitingRequests;
        private volatile DistributionSummary batchInputs;
        private volatile Timer batchDuration;

        EmbeddingMeters(Tags tags, LongSupplier inputsEmbedded, IntSupplier waitingRequests) {
            this.tags = tags;
            this.inputsEmbedded = inputsEmbedded;
            this.waitingRequests = waitingRequests;
        }

        List<Meter> register(MeterRegistry r) {
            Meter inputs = FunctionCounter.builder("llm.embedding.inputs", inputsEmbedded, LongSupplier::getAsLong)
                    .baseUnit("inputs")
                    .description("Inputs embedded")
                    .tags(tags)
                    .register(r);
            Meter waiting = Gauge.builder("llm.embedding.requests.waiting", waitingRequests, IntSupplier::getAsInt)
                    .baseUnit("requests")
                    .description("Embedding requests waiting for a batch")
                    .tags(tags)
                    .strongReference(true)
                    .register(r);
            batchDuration = Timer.builder("llm.embedding.batch.duration")
                    .description("Time of one embedding forward pass")
                    .tags(tags)
                    .serviceLevelObjectives(STEP_SLOS)
                    .register(r);
            batchInputs = DistributionSummary.builder("llm.embedding.batch.size")
                    .baseUnit("inputs")
                    .description("Inputs embedded together in one forward pass")
                    .tags(tags)
                    .serviceLevelObjectives(BATCH_SIZE_SLOS)
                    .register(r);
            return List.of(inputs, waiting, batchDuration, batchInputs);
        }

        @Override
        public void onBatch(int requests, int inputs, int tokens, Duration elapsed) {
            DistributionSummary size = batchInputs;
            Timer time = batchDuration;
            if (size != null && time != null) {
                size.record(inputs);
                time.record(elapsed);
            }
        }
    }

    private static Duration[] millis(long... values) {
        Duration[] out = new Duration[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = Duration.ofMillis(values[i]);
        }
        return out;
    }
}
