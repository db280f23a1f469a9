package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.llmserve.app.FaultInjectingBackend;
import com.llmserve.app.GpuStandIn;
import com.llmserve.app.GpuStandInTest;
import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.app.models.ServedTextModel;
import com.llmserve.engine.sched.EngineStats;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * 1,000 requests, 16 at a time, to a model on a device that fails forward passes at random steps
 * (mid-batch, 3% of passes): every request ends whole (on the device, or on the CPU copy while the
 * breaker is open) or with a clean error (the error envelope, or a stream's error event then
 * {@code [DONE]}); none hangs or is cut. Afterwards no KV block is held on either replica, and
 * once the device heals the half-open probes close the breaker. The counts are printed.
 */
@GpuStandInTest
class DeviceFaultCountIntegrationTests {

    private static final int REQUESTS = 1000;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Autowired
    ModelRegistry registry;

    @Autowired
    GpuStandIn.Backends backends;

    @Autowired
    CircuitBreakerRegistry breakers;

    @AfterEach
    void healed() {
        backends.healAll();
    }

    @Test
    void aThousandRequestsOnAFlakyDeviceEndWholeOrWithACleanError() throws Exception {
        ModelsReady.await(registry);
        FaultInjectingBackend gpu = backends.of(TestModels.TEXT);
        CircuitBreaker breaker = breakers.circuitBreaker("gpu-" + TestModels.TEXT);
        List<CircuitBreaker.State> states = new java.util.concurrent.CopyOnWriteArrayList<>();
        breaker.getEventPublisher()
                .onStateTransition(e -> states.add(e.getStateTransition().getToState()));
        gpu.failAtRandom(0.03, 7);
        Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Semaphore slots = new Semaphore(16);
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                boolean stream = i % 2 == 1;
                slots.acquire();
                all.add(pool.submit(() -> {
                    try {
                        outcomes.computeIfAbsent(send(http, stream), k -> new AtomicInteger())
                                .incrementAndGet();
                    } finally {
                        slots.release();
                    }
                }));
            }
            for (Future<?> f : all) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            http.close();
        }
        long failedPasses = gpu.failures();
        gpu.heal();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            ServedTextModel model = registry.textModel(TestModels.TEXT);
            for (var replica : model.replicas()) {
                EngineStats stats = replica.engine().stats();
                assertThat(stats.kvBlocksUsed()).as("KV blocks of " + replica).isZero();
                assertThat(stats.runningSequences()).isZero();
                assertThat(stats.waitingRequests()).isZero();
            }
        });
        // the healed device closes its breaker through the half-open probes
        await().atMost(Duration.ofSeconds(30)).until(() -> breaker.getState() == CircuitBreaker.State.CLOSED);
        Map<String, Integer> counts = new TreeMap<>();
        outcomes.forEach((k, v) -> counts.put(k, v.get()));
        System.out.printf(
                "Device faults: %d requests, %d failed forward passes, outcomes %s, breaker went %s%n",
                REQUESTS, failedPasses, counts, states);
        assertThat(counts.keySet()).allMatch(k -> k.startsWith("whole") || k.startsWith("clean error"));
        assertThat(counts.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(REQUESTS);
        assertThat(failedPasses).as("faults were injected").isPositive();
        assertThat(states)
                .as("the breaker opened and closed again")
                .contains(CircuitBreaker.State.OPEN, CircuitBreaker.State.CLOSED);
    }

    /** One request and how it ended: whole, a clean error (with its code), or what went wrong. */
    private String send(HttpClient http, boolean stream) {
        String body = "{\"model\":\"" + TestModels.TEXT + "\",\"prompt\":\"Once upon a time\",\"max_tokens\":12,"
                + "\"ignore_eos\":true,\"stream\":" + stream + "}";
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/completions"))
                            .header("Content-Type", "application/json")
                            .timeout(Duration.ofSeconds(60))
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                JsonNode error = JSON.readTree(r.body()).get("error");
                return error != null
                        ? "clean error " + r.statusCode() + " "
                                + error.get("code").asString()
                        : "bad " + r.statusCode();
            }
            if (!stream) {
                JsonNode answer = JSON.readTree(r.body().strip());
                if (answer.has("error")) {
                    return "clean error under 200 " + answer.at("/error/code").asString();
                }
                return answer.at("/choices/0/finish_reason").isString() ? "whole" : "cut";
            }
            List<String> events = Http.events(r.body());
            if (events.isEmpty() || !events.getLast().equals("[DONE]")) {
                return "cut stream";
            }
            String last = events.get(events.size() - 2);
            if (last.contains("\"error\"")) {
                return "clean error event "
                        + JSON.readTree(last).at("/error/code").asString();
            }
            return last.contains("\"finish_reason\":\"length\"") ? "whole stream" : "cut stream";
        } catch (Exception e) {
            return "failed " + e.getClass().getSimpleName();
        }
    }
}
