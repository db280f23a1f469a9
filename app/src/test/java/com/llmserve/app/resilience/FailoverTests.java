package com.llmserve.app.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.llmserve.app.gpu.DeviceFaults;
import com.llmserve.engine.sched.AdmissionException;
import com.llmserve.gpu.GpuCallException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FailoverTests {

    private static final CircuitBreakerConfig QUICK = CircuitBreakerConfig.from(ServingPolicies.GPU_BREAKER_DEFAULTS)
            .slidingWindowSize(4)
            .minimumNumberOfCalls(2)
            .waitDurationInOpenState(Duration.ofMillis(100))
            .permittedNumberOfCallsInHalfOpenState(2)
            .build();

    private final CircuitBreakerRegistry breakers =
            CircuitBreakerRegistry.of(java.util.Map.of(ServingPolicies.GPU_BREAKER, QUICK));
    private final AtomicReference<Throwable> probeFailure = new AtomicReference<>();
    private final AtomicInteger probes = new AtomicInteger();
    private Failover failover;

    private Failover failover(boolean fallback) {
        return failover(breakers, fallback);
    }

    private Failover failover(CircuitBreakerRegistry breakers, boolean fallback) {
        ServingPolicies policies = new ServingPolicies(
                breakers,
                io.github.resilience4j.timelimiter.TimeLimiterRegistry.ofDefaults(),
                io.github.resilience4j.bulkhead.BulkheadRegistry.ofDefaults(),
                FailoverProperties.defaults(),
                HostMemory.system(),
                DeviceFaults.none());
        failover = policies.failover("m", "cuda:0", java.util.List.of("cuda:0"), fallback, () -> {
            probes.incrementAndGet();
            Throwable f = probeFailure.get();
            return f == null ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(f);
        });
        return failover;
    }

    @AfterEach
    void close() {
        if (failover != null) {
            failover.close();
        }
    }

    private static RuntimeException deviceError() {
        return new GpuCallException("cuda", "cuLaunchKernel", 1, "CUDA_ERROR_INVALID_VALUE", "invalid argument", false);
    }

    @Test
    void oneFailedForwardPassFailingManyRequestsCountsOnce() {
        Failover f = failover(true);
        RuntimeException step = deviceError();
        for (int i = 0; i < 3; i++) {
            f.succeeded(1_000);
        }
        for (int i = 0; i < 3; i++) {
            assertThat(f.route()).isEqualTo(Failover.Route.PRIMARY);
            f.failed(1_000, step); // the same exception: the engine failed three running requests with one step's error
        }

        assertThat(f.breaker().getState()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(f.breaker().getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
    }

    @Test
    void failuresStepAfterStepOpenItAndNewRequestsGoToTheCpuCopy() {
        Failover f = failover(true);
        f.failed(1_000, deviceError());
        f.failed(1_000, deviceError());

        assertThat(f.breaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(f.route()).isEqualTo(Failover.Route.FALLBACK);
        assertThat(f.blocked()).isFalse();
    }

    @Test
    void withoutACpuCopyAnOpenBreakerRefusesWithTheTimeLeftBeforeItProbes() {
        CircuitBreakerRegistry slow = CircuitBreakerRegistry.of(java.util.Map.of(
                ServingPolicies.GPU_BREAKER,
                CircuitBreakerConfig.from(QUICK)
                        .waitDurationInOpenState(Duration.ofSeconds(30))
                        .build()));
        Failover f = failover(slow, false);
        f.failed(1_000, deviceError());
        f.failed(1_000, deviceError());

        assertThatThrownBy(f::route).isInstanceOfSatisfying(DeviceUnavailableException.class, e -> {
            assertThat(e.retryAfter()).isBetween(Duration.ofSeconds(25), Duration.ofSeconds(30));
            assertThat(e).hasMessageContaining("'m'").hasMessageContaining("cuda:0");
        });
        assertThat(f.blocked()).isTrue();
    }

    @Test
    void refusalsForTheClientsSakeDoNotCount() {
        Failover f = failover(true);
        for (int i = 0; i < 4; i++) {
            f.route();
            f.refused(new AdmissionException(AdmissionException.Reason.QUEUE_FULL, "full", Duration.ofSeconds(1)));
        }

        assertThat(f.breaker().getState()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(f.breaker().getMetrics().getNumberOfBufferedCalls()).isZero();
    }

    @Test
    void probesFailingWithOneSharedErrorStillEachCount() {
        Failover f = failover(true);
        probeFailure.set(deviceError()); // every probe fails with the same instance: each is still its own call
        f.failed(1_000, deviceError());
        f.failed(1_000, deviceError());
        List<CircuitBreaker.StateTransition> transitions = new java.util.concurrent.CopyOnWriteArrayList<>();
        f.breaker().getEventPublisher().onStateTransition(e -> transitions.add(e.getStateTransition()));

        await().atMost(Duration.ofSeconds(10))
                .until(() -> transitions.contains(CircuitBreaker.StateTransition.HALF_OPEN_TO_OPEN));
    }

    @Test
    void halfOpenProbesReopenAFailingDeviceAndCloseAHealedOne() {
        Failover f = failover(true);
        probeFailure.set(deviceError());
        f.failed(1_000, deviceError());
        f.failed(1_000, deviceError());

        await().atMost(Duration.ofSeconds(10)).until(() -> probes.get() >= 2);
        assertThat(f.route()).as("users stay off the device while it is probed").isEqualTo(Failover.Route.FALLBACK);
        probeFailure.set(null);

        await().atMost(Duration.ofSeconds(10)).until(() -> f.breaker().getState() == CircuitBreaker.State.CLOSED);
        assertThat(f.route()).isEqualTo(Failover.Route.PRIMARY);
    }

    @Test
    void aBreakerThatWouldNeverProbeIsRefusedAtStartup() {
        CircuitBreakerRegistry manual = CircuitBreakerRegistry.of(java.util.Map.of(
                ServingPolicies.GPU_BREAKER,
                CircuitBreakerConfig.from(QUICK)
                        .automaticTransitionFromOpenToHalfOpenEnabled(false)
                        .build()));

        assertThatThrownBy(() -> new ServingPolicies(
                        manual,
                        io.github.resilience4j.timelimiter.TimeLimiterRegistry.ofDefaults(),
                        io.github.resilience4j.bulkhead.BulkheadRegistry.ofDefaults(),
                        FailoverProperties.defaults(),
                        HostMemory.system(),
                        DeviceFaults.none()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("automatic-transition-from-open-to-half-open-enabled");
    }
}
