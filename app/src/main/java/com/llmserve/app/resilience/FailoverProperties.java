package com.llmserve.app.resilience;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What happens to a GPU model's requests while its GPU fails. The circuit breaker itself (when
 * it opens, how long it stays open, how many probes close it) is the resilience4j configuration
 * {@code gpu} in {@code application.yaml}.
 *
 * @param cpuFallback    whether a model placed on a GPU also gets a CPU copy to take its new requests
 *                       while its breaker is open: {@code auto} when it fits in memory, {@code always},
 *                       or {@code never} (requests are then answered 503 with {@code Retry-After})
 * @param memoryFraction the share of the memory available at load time that {@code auto} lets one CPU copy
 *                       (weights and KV cache) take
 * @param probeTimeout   the longest a half-open probe (a four-token greedy request on the GPU) may take
 *                       before it counts as failed
 */
@ConfigurationProperties("llmserve.failover")
public record FailoverProperties(
        @DefaultValue("auto") CpuFallback cpuFallback,
        @DefaultValue("0.8") double memoryFraction,
        @DefaultValue("30s") Duration probeTimeout) {

    /** When a GPU model gets a CPU copy. */
    public enum CpuFallback {
        /** When its weights and KV cache fit in {@code memoryFraction} of the memory available. */
        AUTO,
        /** Always (the operator vouches for the memory). */
        ALWAYS,
        /** Never. */
        NEVER
    }

    public FailoverProperties {
        if (!(memoryFraction > 0 && memoryFraction <= 1)) {
            throw new IllegalArgumentException(
                    "llmserve.failover.memory-fraction must be in (0, 1]: " + memoryFraction);
        }
        if (probeTimeout.isNegative() || probeTimeout.isZero()) {
            throw new IllegalArgumentException("llmserve.failover.probe-timeout must be positive: " + probeTimeout);
        }
    }

    public static FailoverProperties defaults() {
        return new FailoverProperties(CpuFallback.AUTO, 0.8, Duration.ofSeconds(30));
    }
}
