package com.llmserve.app.models;

import com.llmserve.app.gpu.DeviceFaults;
import com.llmserve.app.resilience.FailoverProperties;
import com.llmserve.app.resilience.HostMemory;
import com.llmserve.app.resilience.ServingPolicies;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.cpu.CpuBackend;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** What the model-loading tests build without a Spring context: properties, a CPU provider, policies. */
final class ModelsTestSupport {

    private ModelsTestSupport() {}

    /** {@code llmserve.*} bound from {@code values} as the service binds them. */
    static ServingProperties properties(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate("llmserve", ServingProperties.class);
    }

    /** Every model on a one-thread CPU backend; no GPU. */
    static BackendProvider cpuOnly() {
        return new BackendProvider() {
            @Override
            public boolean available(BackendChoice choice) {
                return choice != BackendChoice.GPU;
            }

            @Override
            public Backend create(BackendChoice choice, String modelId) {
                return new CpuBackend(1);
            }
        };
    }

    /** Default registries and probes, the given CPU-copy policy, host memory and no device faults. */
    static ServingPolicies policies(FailoverProperties.CpuFallback fallback, HostMemory memory) {
        return new ServingPolicies(
                CircuitBreakerRegistry.ofDefaults(),
                TimeLimiterRegistry.ofDefaults(),
                BulkheadRegistry.ofDefaults(),
                new FailoverProperties(fallback, 0.8, Duration.ofSeconds(30)),
                memory,
                DeviceFaults.none());
    }
}
