package com.llmserve.app.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.springboot.bulkhead.autoconfigure.BulkheadAutoConfiguration;
import io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration;
import io.github.resilience4j.springboot.timelimiter.autoconfigure.TimeLimiterAutoConfiguration;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class ResilienceAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    ResilienceAutoConfiguration.class,
                    CircuitBreakerAutoConfiguration.class,
                    TimeLimiterAutoConfiguration.class,
                    BulkheadAutoConfiguration.class));

    @Test
    void namedInstancesOfTheConfigurationAreThePoliciesTheModelsGet() {
        runner.withPropertyValues(
                        "resilience4j.timelimiter.instances.generation.timeout-duration=90s",
                        "resilience4j.timelimiter.instances.embedding.timeout-duration=7s",
                        "resilience4j.bulkhead.instances.admission.max-concurrent-calls=12")
                .run(context -> {
                    ServingPolicies policies = context.getBean(ServingPolicies.class);
                    assertThat(policies.generationTimeLimiter()
                                    .getTimeLimiterConfig()
                                    .getTimeoutDuration())
                            .isEqualTo(Duration.ofSeconds(90));
                    assertThat(policies.embeddingTimeLimiter()
                                    .getTimeLimiterConfig()
                                    .getTimeoutDuration())
                            .isEqualTo(Duration.ofSeconds(7));
                    assertThat(policies.admission().getBulkheadConfig().getMaxConcurrentCalls())
                            .isEqualTo(12);
                });
    }

    @Test
    void withoutThemOurDefaultsApplyNotResilience4jsOneSecond() {
        runner.run(context -> {
            ServingPolicies policies = context.getBean(ServingPolicies.class);
            assertThat(policies.generationTimeLimiter().getTimeLimiterConfig().getTimeoutDuration())
                    .isEqualTo(Duration.ofMinutes(10));
            assertThat(policies.embeddingTimeLimiter().getTimeLimiterConfig().getTimeoutDuration())
                    .isEqualTo(Duration.ofMinutes(2));
            assertThat(policies.admission().getBulkheadConfig().getMaxConcurrentCalls())
                    .isEqualTo(1024);
        });
    }

    @Test
    void aGpuBreakerThatWouldNeverProbeStopsStartup() {
        runner.withPropertyValues(
                        "resilience4j.circuitbreaker.configs.gpu.automatic-transition-from-open-to-half-open-enabled=false")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("automatic-transition-from-open-to-half-open-enabled must be true"));
    }

    @Test
    void aMemoryFractionOutsideZeroToOneStopsStartup() {
        runner.withPropertyValues("llmserve.failover.memory-fraction=1.5").run(context -> assertThat(context)
                .hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("memory-fraction"));
    }
}
