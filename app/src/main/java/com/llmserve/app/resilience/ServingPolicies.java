package com.llmserve.app.resilience;

import com.llmserve.app.gpu.DeviceFaults;
import com.llmserve.engine.model.InputTooLongException;
import com.llmserve.engine.sched.AdmissionException;
import com.llmserve.engine.sched.EngineOptions;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import java.time.Duration;
import java.util.List;

/**
 * The resilience4j instances the models use, by the names {@code application.yaml} configures:
 * <ul>
 *   <li>{@value #GPU_BREAKER}: the shared configuration of each GPU model's circuit breaker, an
 *       instance named {@code gpu-<model id>} (an instance of that name in the configuration wins,
 *       so one model can be tuned apart);</li>
 *   <li>{@value #GENERATION} and {@value #EMBEDDING}: time limiters whose timeout is the longest a
 *       request may wait and run;</li>
 *   <li>{@value #ADMISSION}: the bulkhead bounding the requests in flight across all models.</li>
 * </ul>
 * Where the configuration lacks one (an application without our {@code application.yaml}), the
 * same values as ours apply rather than resilience4j's defaults (whose one-second time limit would
 * end every generation).
 */
public final class ServingPolicies {

    public static final String GPU_BREAKER = "gpu";
    public static final String GENERATION = "generation";
    public static final String EMBEDDING = "embedding";
    public static final String ADMISSION = "admission";

    /** Ours, as {@code application.yaml} sets them. */
    static final CircuitBreakerConfig GPU_BREAKER_DEFAULTS = CircuitBreakerConfig.custom()
            .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(20)
            .minimumNumberOfCalls(5)
            .failureRateThreshold(50)
            .waitDurationInOpenState(Duration.ofSeconds(30))
            .automaticTransitionFromOpenToHalfOpenEnabled(true)
            .permittedNumberOfCallsInHalfOpenState(3)
            .maxWaitDurationInHalfOpenState(Duration.ofMinutes(2))
            .ignoreExceptions(AdmissionException.class, InputTooLongException.class)
            .build();

    /** The engine's own limit, which the configured one replaces. */
    static final TimeLimiterConfig GENERATION_DEFAULTS = TimeLimiterConfig.custom()
            .timeoutDuration(EngineOptions.DEFAULT_TIMEOUT)
            .cancelRunningFuture(true)
            .build();

    static final TimeLimiterConfig EMBEDDING_DEFAULTS = TimeLimiterConfig.custom()
            .timeoutDuration(Duration.ofMinutes(2))
            .cancelRunningFuture(true)
            .build();
    static final BulkheadConfig ADMISSION_DEFAULTS = BulkheadConfig.custom()
            .maxConcurrentCalls(1024)
            .maxWaitDuration(Duration.ZERO)
            .build();

    private final CircuitBreakerRegistry breakers;
    private final TimeLimiterRegistry limiters;
    private final BulkheadRegistry bulkheads;
    private final FailoverProperties failover;
    private final CpuFallbackPolicy cpuFallback;
    private final DeviceFaults faults;
    private final HostMemory memory;

    public ServingPolicies(
            CircuitBreakerRegistry breakers,
            TimeLimiterRegistry limiters,
            BulkheadRegistry bulkheads,
            FailoverProperties failover,
            HostMemory memory,
            DeviceFaults faults) {
        this.breakers = breakers;
        this.limiters = limiters;
        this.bulkheads = bulkheads;
        this.failover = failover;
        this.cpuFallback = new CpuFallbackPolicy(failover, memory);
        this.faults = faults;
        this.memory = memory;
        // a wrong breaker configuration stops startup, not the first model placed on a GPU
        breakers.getConfiguration(GPU_BREAKER).ifPresent(c -> {
            if (!c.isAutomaticTransitionFromOpenToHalfOpenEnabled()) {
                throw new IllegalStateException(
                        "resilience4j.circuitbreaker.configs." + GPU_BREAKER
                                + ".automatic-transition-from-open-to-half-open-enabled must be true: probes, not user requests, test a failed GPU");
            }
        });
    }

    /** Our defaults, for tests and tools without a Spring context. */
    public static ServingPolicies defaults() {
        return new ServingPolicies(
                CircuitBreakerRegistry.ofDefaults(),
                TimeLimiterRegistry.ofDefaults(),
                BulkheadRegistry.ofDefaults(),
                FailoverProperties.defaults(),
                HostMemory.system(),
                DeviceFaults.none());
    }

    public Bulkhead admission() {
        return bulkheads.find(ADMISSION).orElseGet(() -> bulkheads.bulkhead(ADMISSION, ADMISSION_DEFAULTS));
    }

    public TimeLimiter generationTimeLimiter() {
        return limiters.find(GENERATION).orElseGet(() -> limiters.timeLimiter(GENERATION, GENERATION_DEFAULTS));
    }

    public TimeLimiter embeddingTimeLimiter() {
        return limiters.find(EMBEDDING).orElseGet(() -> limiters.timeLimiter(EMBEDDING, EMBEDDING_DEFAULTS));
    }

    /**
     * Refuses a KV cache on the CPU that the host cannot hold: allocating it (zeroed, before any
     * request) would take the memory of everything else, or the time of writing gigabytes, when a
     * block count is set far too high (in the configuration, or in an admin request).
     *
     * @throws IllegalStateException saying what the cache needs and what there is
     */
    public void checkHostMemory(String model, long cacheBytes) {
        memory.available().ifPresent(available -> {
            if (cacheBytes > available) {
                throw new IllegalStateException("model '" + model + "': its KV cache on the CPU needs "
                        + (cacheBytes >> 20) + " MiB, and the host has " + (available >> 20)
                        + " MiB available (fewer kv-blocks, or llmserve.engine.kv-blocks)");
            }
        });
    }

    /** Whether a GPU model also gets a CPU copy needing {@code bytes}. */
    public CpuFallbackPolicy.Decision cpuFallback(long bytes) {
        return cpuFallback.decide(bytes);
    }

    /**
     * The breaker and router of a model placed on {@code device}; close it with the model.
     *
     * @param device as the model's replica names it ({@code cuda:0}, or {@code cuda:0+cuda:1} for a
     *     model split over two GPUs)
     * @param gpus   the GPUs it runs on, as their fault record knows them ({@code [cuda:0, cuda:1]})
     */
    public Failover failover(
            String model, String device, List<String> gpus, boolean hasFallback, Failover.Probe probe) {
        return failover(model, GPU_BREAKER + "-" + model, device, gpus, hasFallback, probe);
    }

    /**
     * The failover of one of a model's GPU replicas, with a breaker of its own: {@code gpu-<model>@<device>}
     * (the device as its replica names it, {@code cuda:1}, or {@code cuda:0+cuda:1} for a replica split
     * over two GPUs).
     */
    public Failover replicaFailover(
            String model, String device, List<String> gpus, boolean hasFallback, Failover.Probe probe) {
        return failover(model, GPU_BREAKER + "-" + model + "@" + device, device, gpus, hasFallback, probe);
    }

    private Failover failover(
            String model, String name, String device, List<String> gpus, boolean hasFallback, Failover.Probe probe) {
        CircuitBreaker breaker = breakers.find(name)
                .orElseGet(() -> breakers.circuitBreaker(
                        name, breakers.getConfiguration(GPU_BREAKER).orElse(GPU_BREAKER_DEFAULTS)));
        return new Failover(
                model,
                device,
                gpus,
                breaker,
                hasFallback,
                probe,
                failover.probeTimeout(),
                faults,
                () -> breakers.remove(name));
    }
}
