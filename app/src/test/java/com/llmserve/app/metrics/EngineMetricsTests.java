package com.llmserve.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.sched.EmbeddingEngine;
import com.llmserve.engine.sched.EngineObserver;
import com.llmserve.engine.sched.EngineStats;
import com.llmserve.engine.sched.FinishReason;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class EngineMetricsTests {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final EngineMetrics metrics = new EngineMetrics();
    private final AtomicReference<EngineStats> stats =
            new AtomicReference<>(new EngineStats(0, 256, 0, 0, 99, 0, 0, 0, 0, 0, 0));

    @Test
    void gaugesAndCountersReadTheEnginesLiveState() {
        metrics.bindTo(registry);
        metrics.completion("m", "cuda:0", stats::get);

        stats.set(new EngineStats(3, 256, 5, 40, 99, 7, 12, 300, 250, 60, 1));

        assertThat(gauge("llm.requests.waiting")).isEqualTo(3);
        assertThat(gauge("llm.requests.waiting.capacity")).isEqualTo(256);
        assertThat(gauge("llm.requests.running")).isEqualTo(5);
        assertThat(gauge("llm.kv.blocks.used")).isEqualTo(40);
        assertThat(gauge("llm.kv.blocks.total")).isEqualTo(99);
        assertThat(counter("llm.prefix.cache.hits")).isEqualTo(7);
        assertThat(counter("llm.prefix.cache.queries")).isEqualTo(12);
        assertThat(counter("llm.tokens.prompt")).isEqualTo(300);
        assertThat(counter("llm.tokens.generated")).isEqualTo(250);
        assertThat(counter("llm.preemptions")).isEqualTo(1);
        assertThat(registry.get("llm.kv.blocks.used").gauge().getId().getBaseUnit())
                .isEqualTo("blocks");
        assertThat(registry.get("llm.tokens.generated")
                        .functionCounter()
                        .getId()
                        .getBaseUnit())
                .isEqualTo("tokens");
    }

    @Test
    void theObserverRecordsLatenciesIntoHistogramsWithSloBuckets() {
        metrics.bindTo(registry);
        EngineObserver observer = metrics.completion("m", "cuda:0", stats::get);

        observer.onFirstToken(Duration.ofMillis(80));
        observer.onInterToken(Duration.ofMillis(20));
        observer.onInterToken(Duration.ofMillis(30));
        observer.onStep(4, 64, Duration.ofMillis(12));
        observer.onChoiceFinished(FinishReason.LENGTH, Duration.ofSeconds(2), Duration.ofMillis(3), 10, 3);
        observer.onChoiceFinished(FinishReason.ERROR, Duration.ofMillis(700), Duration.ofMillis(300), 10, 0);

        Timer ttft = registry.get("llm.request.ttft")
                .tag("model", "m")
                .tag("device", "cuda:0")
                .timer();
        assertThat(ttft.count()).isEqualTo(1);
        assertThat(ttft.totalTime(java.util.concurrent.TimeUnit.MILLISECONDS)).isEqualTo(80);
        assertThat(bucket(ttft, Duration.ofMillis(100)))
                .as("80 ms is under the 100 ms objective")
                .isEqualTo(1);
        assertThat(bucket(ttft, Duration.ofMillis(50))).isZero();
        assertThat(registry.get("llm.request.inter.token").timer().count()).isEqualTo(2);
        assertThat(registry.get("llm.request.queue").timer().count()).isEqualTo(2);
        assertThat(registry.get("llm.request.duration")
                        .tag("outcome", "length")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("llm.request.duration")
                        .tag("outcome", "error")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("llm.request.duration")
                        .tag("outcome", "stop")
                        .timer()
                        .count())
                .isZero();
        assertThat(registry.get("llm.batch.size").summary().max()).isEqualTo(4);
        assertThat(registry.get("llm.batch.tokens").summary().totalAmount()).isEqualTo(64);
        assertThat(registry.get("llm.step.duration").timer().count()).isEqualTo(1);
        // (the simple registry adds a gauge per SLO bucket, named ".histogram": not ours to describe)
        assertThat(registry.getMeters())
                .filteredOn(m -> !m.getId().getName().endsWith(".histogram"))
                .allSatisfy(m -> assertThat(m.getId().getDescription())
                        .as(m.getId().getName())
                        .isNotBlank());
    }

    @Test
    void aReplicaStartedBeforeBindingRecordsNothingUntilItGetsItsMeters() {
        EngineObserver early = metrics.completion("m", "cpu", stats::get);
        early.onFirstToken(Duration.ofMillis(5)); // nowhere to go yet, and no failure either

        metrics.bindTo(registry);
        early.onFirstToken(Duration.ofMillis(5));

        assertThat(registry.get("llm.request.ttft").tag("device", "cpu").timer().count())
                .isEqualTo(1);
    }

    @Test
    void embeddingReplicasCountInputsAndBatches() {
        metrics.bindTo(registry);
        long[] inputs = {0};
        EmbeddingEngine.EmbeddingObserver observer = metrics.embedding("e", "cpu", () -> inputs[0], () -> 2);

        observer.onBatch(3, 16, 200, Duration.ofMillis(9));
        inputs[0] = 16;

        assertThat(registry.get("llm.embedding.inputs")
                        .tag("model", "e")
                        .functionCounter()
                        .count())
                .isEqualTo(16);
        assertThat(registry.get("llm.embedding.requests.waiting").gauge().value())
                .isEqualTo(2);
        assertThat(registry.get("llm.embedding.batch.size").summary().totalAmount())
                .isEqualTo(16);
        assertThat(registry.get("llm.embedding.batch.duration").timer().count()).isEqualTo(1);
    }

    @Test
    void aReleasedModelTakesItsMetersWithItAndANewCopyOfItsIdReadsItsOwnEngine() {
        metrics.bindTo(registry);
        metrics.completion("m", "cuda:0", stats::get);
        metrics.completion("m", "cpu", stats::get);
        metrics.embedding("e", "cpu", () -> 5, () -> 0);

        metrics.released("m");

        assertThat(registry.getMeters())
                .allMatch(meter -> "e".equals(meter.getId().getTag("model")));
        assertThat(registry.find("llm.embedding.inputs").tag("model", "e").functionCounter())
                .isNotNull();

        metrics.completion("m", "cuda:0", () -> new EngineStats(0, 256, 0, 0, 7, 0, 0, 0, 0, 0, 0));
        assertThat(gauge("llm.kv.blocks.total")).isEqualTo(7);
    }

    @Test
    void tagsAreOnlyModelDeviceAndOutcome() {
        metrics.bindTo(registry);
        metrics.completion("m", "cuda:0", stats::get);
        metrics.embedding("e", "cpu", () -> 0, () -> 0);

        assertThat(registry.getMeters())
                .filteredOn(m -> !m.getId().getName().endsWith(".histogram"))
                .flatExtracting(m -> m.getId().getTags())
                .extracting(t -> t.getKey())
                .containsOnly("model", "device", "outcome");
        assertThat(registry.getMeters())
                .extracting(Meter::getId)
                .extracting(Meter.Id::getName)
                .allMatch(n -> n.startsWith("llm."));
    }

    private double gauge(String name) {
        return registry.get(name)
                .tag("model", "m")
                .tag("device", "cuda:0")
                .gauge()
                .value();
    }

    private double counter(String name) {
        return registry.get(name)
                .tag("model", "m")
                .tag("device", "cuda:0")
                .functionCounter()
                .count();
    }

    private static double bucket(Timer timer, Duration le) {
        return Arrays.stream(timer.takeSnapshot().histogramCounts())
                .filter(b -> b.bucket(java.util.concurrent.TimeUnit.NANOSECONDS) == le.toNanos())
                .mapToDouble(CountAtBucket::count)
                .findFirst()
                .orElseThrow();
    }
}
