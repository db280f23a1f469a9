package com.llmserve.app.models;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.app.TestModels;
import com.llmserve.app.gpu.DeviceFaults;
import com.llmserve.app.gpu.GpuDevices;
import com.llmserve.app.gpu.GpuTelemetry;
import com.llmserve.app.metrics.EngineMetrics;
import com.llmserve.app.resilience.FailoverProperties;
import com.llmserve.app.resilience.HostMemory;
import com.llmserve.app.resilience.ServingPolicies;
import com.llmserve.engine.backend.Backends;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.engine.sampling.TokenLogprobs;
import com.llmserve.engine.sched.FinishReason;
import com.llmserve.engine.sched.InferenceRequest;
import com.llmserve.engine.sched.TokenListener;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RequiresGpu;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * On a real GPU: a model placed by the service's provider runs on the device behind its breaker,
 * with a CPU copy, and the device's meters read real numbers (printed as {@code [gpu-report]}
 * lines). Skipped where no GPU answers.
 */
@RequiresGpu
class GpuServingDeviceTests {

    private static DevicePool pool;

    @BeforeAll
    static void open(DevicePool devices) {
        pool = devices;
    }

    @Test
    void aModelOnTheGpuIsGuardedHasACpuCopyAndTheDevicesMetersReadRealNumbers() throws Exception {
        Map<String, String> values = new HashMap<>();
        values.put("llmserve.models-dir", TestModels.shared().resolve("models").toString());
        values.put("llmserve.scan-models-dir", "false");
        values.put("llmserve.models[0].path", TestModels.file(TestModels.TEXT).toString());
        values.put("llmserve.models[0].backend", "gpu");
        values.put("llmserve.engine.kv-blocks", "256");
        ServingProperties p = new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("llmserve", ServingProperties.class);
        DefaultBackendProvider backends = new DefaultBackendProvider(new Backends(pool, 2, GpuOptions.defaults()));
        CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
        ServingPolicies policies = new ServingPolicies(
                breakers,
                TimeLimiterRegistry.ofDefaults(),
                BulkheadRegistry.ofDefaults(),
                new FailoverProperties(FailoverProperties.CpuFallback.ALWAYS, 0.8, Duration.ofSeconds(30)),
                HostMemory.system(),
                DeviceFaults.none());
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        EngineMetrics engineMetrics = new EngineMetrics();
        engineMetrics.bindTo(registry);
        GpuDevices devices = com.llmserve.app.gpu.GpuTestAccess.devices(pool);
        GpuTelemetry telemetry =
                new GpuTelemetry(devices, Duration.ofSeconds(1), DeviceFaults.none(), Clock.systemUTC());
        com.llmserve.app.gpu.GpuTestAccess.bindMetrics(devices, telemetry, registry);

        ModelLoader loader = new ModelLoader(p, backends, policies, engineMetrics);
        try (ServedTextModel model = (ServedTextModel)
                loader.load(new ModelCatalog(p, backends).startup().plans().getFirst())) {
            String device = model.replicas().getFirst().device();
            assertThat(device).matches("(cuda|hip):\\d+");
            assertThat(model.replicas()).extracting(Replica::device).containsExactly(device, "cpu");
            assertThat(model.failovers()).hasSize(1);
            loader.warmUp(model);

            int generated = 0;
            for (int i = 0; i < 4; i++) {
                CompletableFuture<FinishReason> done = new CompletableFuture<>();
                int[] count = {0};
                model.submit(
                        InferenceRequest.greedy(model.promptEncoder().encode("Once upon a time"), 32)
                                .withN(2),
                        new TokenListener() {
                            @Override
                            public void onToken(int choice, int token, TokenLogprobs logprobs) {
                                count[0]++;
                            }

                            @Override
                            public void onFinish(int choice, FinishReason reason) {
                                if (choice == 1) {
                                    done.complete(reason);
                                }
                            }
                        });
                assertThat(done.get(60, TimeUnit.SECONDS)).isEqualTo(FinishReason.LENGTH);
                generated += count[0];
            }
            telemetry.sampleAll();
            String scrape = registry.scrape();
            scrape.lines()
                    .filter(l -> !l.startsWith("#")
                            && (l.startsWith("llm_gpu_")
                                    || l.startsWith("llm_tokens_")
                                    || l.startsWith("llm_kv_blocks")
                                    || l.startsWith("llm_request_ttft_seconds_count")))
                    .forEach(l -> System.out.println("[gpu-report] " + l));

            assertThat(model.failovers().getFirst().breaker().getState()).isEqualTo(CircuitBreaker.State.CLOSED);
            assertThat(gauge(registry, "llm.gpu.memory.total", device)).isGreaterThan(1L << 30);
            assertThat(gauge(registry, "llm.gpu.memory.used", device))
                    .isPositive()
                    .isLessThanOrEqualTo(gauge(registry, "llm.gpu.memory.total", device));
            assertThat(gauge(registry, "llm.gpu.allocator.memory.used", device))
                    .as("the model's weights and KV cache")
                    .isPositive();
            assertThat(registry.get("llm.gpu.allocator.driver.allocations")
                            .tag("device", device)
                            .functionCounter()
                            .count())
                    .isPositive();
            assertThat(gauge(registry, "llm.gpu.streams.capacity", device)).isPositive();
            double utilization = gauge(registry, "llm.gpu.utilization", device);
            if (!Double.isNaN(utilization)) { // NVML or rocm-smi installed
                assertThat(utilization).isBetween(0.0, 1.0);
                assertThat(gauge(registry, "llm.gpu.temperature", device)).isBetween(5.0, 110.0);
                assertThat(gauge(registry, "llm.gpu.power", device)).isPositive();
            }
            double tokens = registry.get("llm.tokens.generated")
                    .tag("model", TestModels.TEXT)
                    .tag("device", device)
                    .functionCounter()
                    .count();
            assertThat(tokens).as("the warm-up's 4 tokens and ours, on the GPU").isEqualTo(4 + generated);
        }
    }

    private static double gauge(PrometheusMeterRegistry registry, String name, String device) {
        return registry.get(name).tag("device", device).gauge().value();
    }
}
