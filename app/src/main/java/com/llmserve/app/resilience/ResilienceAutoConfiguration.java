package com.llmserve.app.resilience;

import com.llmserve.app.gpu.DeviceFaults;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The models' resilience policies over resilience4j's registries, which its Spring Boot module
 * builds from the {@code resilience4j.*} configuration (with their meters and events).
 */
@AutoConfiguration
@EnableConfigurationProperties(FailoverProperties.class)
public class ResilienceAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ServingPolicies servingPolicies(
            ObjectProvider<CircuitBreakerRegistry> breakers,
            ObjectProvider<TimeLimiterRegistry> limiters,
            ObjectProvider<BulkheadRegistry> bulkheads,
            FailoverProperties failover,
            ObjectProvider<DeviceFaults> faults) {
        return new ServingPolicies(
                breakers.getIfAvailable(CircuitBreakerRegistry::ofDefaults),
                limiters.getIfAvailable(TimeLimiterRegistry::ofDefaults),
                bulkheads.getIfAvailable(BulkheadRegistry::ofDefaults),
                failover,
                HostMemory.system(),
                faults.getIfAvailable(DeviceFaults::none));
    }
}
