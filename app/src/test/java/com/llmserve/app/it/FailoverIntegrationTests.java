package com.llmserve.app.it;

import static io.github.resilience4j.circuitbreaker.CircuitBreaker.StateTransition.CLOSED_TO_OPEN;
import static io.github.resilience4j.circuitbreaker.CircuitBreaker.StateTransition.HALF_OPEN_TO_CLOSED;
import static io.github.resilience4j.circuitbreaker.CircuitBreaker.StateTransition.HALF_OPEN_TO_OPEN;
import static io.github.resilience4j.circuitbreaker.CircuitBreaker.StateTransition.OPEN_TO_HALF_OPEN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.llmserve.app.FaultInjectingBackend;
import com.llmserve.app.GpuStandIn;
import com.llmserve.app.GpuStandInTest;
import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Walks each GPU model's breaker through closed, open, half-open and closed again with a backend
 * that fails on command: failures on the GPU reach their clients, two of them open the breaker,
 * the CPU copy then answers exactly what the GPU answered, probes on a still failing device open it
 * again without any client noticing, and once the device heals the probes close it and requests
 * run on the GPU again.
 */
@GpuStandInTest
@ExtendWith(OutputCaptureExtension.class)
class FailoverIntegrationTests {

    private static final String GREEDY = "{\"model\":\"" + TestModels.TEXT
            + "\",\"prompt\":\"Once upon a time\",\"max_tokens\":12,\"temperature\":0,\"ignore_eos\":true}";
    private static final String EMBED =
            "{\"model\":\"" + TestModels.EMBEDDING + "\",\"input\":[\"The weather is lovely today.\",\"Hi\"]}";

    @LocalServerPort
    int port;

    @Autowired
    ModelRegistry registry;

    @Autowired
    GpuStandIn.Backends backends;

    @Autowired
    CircuitBreakerRegistry breakers;

    @Autowired
    MeterRegistry meters;

    @Autowired
    JsonMapper json;

    @AfterEach
    void healed() {
        backends.healAll();
        for (String model : List.of(TestModels.TEXT, TestModels.EMBEDDING)) {
            CircuitBreaker b = breakers.circuitBreaker("gpu-" + model);
            await().atMost(Duration.ofSeconds(30)).until(() -> b.getState() == CircuitBreaker.State.CLOSED);
        }
    }

    @Test
    void aCompletionModelFallsBackToItsCpuCopyWhileItsGpuFailsAndReturnsOnceProbesPass(CapturedOutput output)
            throws Exception {
        ModelsReady.await(registry);
        Http http = new Http(port);
        FaultInjectingBackend gpu = backends.of(TestModels.TEXT);
        CircuitBreaker breaker = fresh("gpu-" + TestModels.TEXT);
        List<CircuitBreaker.StateTransition> transitions = new CopyOnWriteArrayList<>();
        breaker.getEventPublisher().onStateTransition(e -> transitions.add(e.getStateTransition()));

        // closed: the GPU answers
        long work = gpu.work();
        String onGpu = text(http.post("/v1/completions", GREEDY));
        assertThat(gpu.work()).isGreaterThan(work);
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
        breaker.reset();

        // the device fails: requests on it end with its error, and the second opens the breaker (two calls, all failed)
        gpu.failLikeABadLaunch();
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> failed = http.post("/v1/completions", GREEDY);
            assertThat(failed.statusCode()).isEqualTo(500);
            assertThat(json.readTree(failed.body()).get("error").get("code").asString())
                    .isEqualTo("engine_error");
        }
        assertThat(transitions).startsWith(CLOSED_TO_OPEN);

        // open (and half-open while probes fail): every client is answered by the CPU copy, with the GPU's text
        double cpuTokens = generated("cpu");
        long failuresBefore = gpu.failures();
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(transitions).contains(HALF_OPEN_TO_OPEN));
        for (int i = 0; i < 3; i++) {
            assertThat(text(http.post("/v1/completions", GREEDY))).isEqualTo(onGpu);
        }
        HttpResponse<String> streamed = http.post("/v1/completions", GREEDY.replace("}", ",\"stream\":true}"));
        assertThat(streamed.statusCode()).isEqualTo(200);
        assertThat(Http.events(streamed.body())).last().isEqualTo("[DONE]");
        assertThat(streamedText(streamed.body())).isEqualTo(onGpu);
        assertThat(generated("cpu") - cpuTokens).isEqualTo(4 * 12);
        assertThat(gpu.failures()).as("only probes reached the failing device").isGreaterThan(failuresBefore);
        await().atMost(Duration.ofSeconds(30)).until(() -> stateGauge("open") == 1.0);
        // the CPU copy serves, so the pod stays ready; the device's health names the breaker and the copy
        HttpResponse<String> readiness = http.get("/actuator/health/readiness");
        assertThat(readiness.statusCode()).isEqualTo(200);
        JsonNode device = json.readTree(readiness.body())
                .get("components")
                .get("gpu")
                .get("components")
                .get(GpuStandIn.DEVICE.replace(':', '-'));
        assertThat(device.get("status").asString()).isEqualTo("UP");
        JsonNode model = device.get("details").get("models").get(TestModels.TEXT);
        assertThat(model.get("circuitBreaker").asString()).isIn("OPEN", "HALF_OPEN");
        assertThat(model.get("cpuFallback").asBoolean()).isTrue();

        // the device heals: the next probes close the breaker and new requests run on it again
        gpu.heal();
        await().atMost(Duration.ofSeconds(30)).until(() -> breaker.getState() == CircuitBreaker.State.CLOSED);
        assertThat(transitions)
                .containsSubsequence(
                        CLOSED_TO_OPEN, OPEN_TO_HALF_OPEN, HALF_OPEN_TO_OPEN, OPEN_TO_HALF_OPEN, HALF_OPEN_TO_CLOSED);
        work = gpu.work();
        assertThat(text(http.post("/v1/completions", GREEDY))).isEqualTo(onGpu);
        assertThat(gpu.work()).isGreaterThan(work);
        assertThat(stateGauge("closed")).isEqualTo(1.0);
        assertThat(output.getOut())
                .contains("Circuit breaker of model '" + TestModels.TEXT + "' on " + GpuStandIn.DEVICE + " opened")
                .contains("is half-open: probing the device")
                .contains("closed: new requests run on the device again");
    }

    @Test
    void anEmbeddingModelFallsBackToItsCpuCopyWithTheSameVectors() throws Exception {
        ModelsReady.await(registry);
        Http http = new Http(port);
        FaultInjectingBackend gpu = backends.of(TestModels.EMBEDDING);
        CircuitBreaker breaker = fresh("gpu-" + TestModels.EMBEDDING);

        JsonNode onGpu = ok(http.post("/v1/embeddings", EMBED));
        breaker.reset();
        gpu.failLikeABadLaunch();
        for (int i = 0; i < 2; i++) {
            assertThat(http.post("/v1/embeddings", EMBED).statusCode()).isEqualTo(500);
        }
        assertThat(breaker.getState()).isIn(CircuitBreaker.State.OPEN, CircuitBreaker.State.HALF_OPEN);
        long work = gpu.work();
        JsonNode onCpu = ok(http.post("/v1/embeddings", EMBED));
        assertThat(gpu.work()).isEqualTo(work);
        assertThat(onCpu.get("data")).isEqualTo(onGpu.get("data"));

        gpu.heal();
        await().atMost(Duration.ofSeconds(30)).until(() -> breaker.getState() == CircuitBreaker.State.CLOSED);
        work = gpu.work();
        assertThat(ok(http.post("/v1/embeddings", EMBED)).get("data")).isEqualTo(onGpu.get("data"));
        assertThat(gpu.work()).isGreaterThan(work);
    }

    /** The breaker with an empty window, so that the calls of earlier tests do not count. */
    private CircuitBreaker fresh(String name) {
        CircuitBreaker breaker = breakers.circuitBreaker(name);
        breaker.reset();
        return breaker;
    }

    private double generated(String device) {
        return meters.get("llm.tokens.generated")
                .tag("model", TestModels.TEXT)
                .tag("device", device)
                .functionCounter()
                .count();
    }

    private double stateGauge(String state) {
        return meters.get("resilience4j.circuitbreaker.state")
                .tag("name", "gpu-" + TestModels.TEXT)
                .tag("state", state)
                .gauge()
                .value();
    }

    private JsonNode ok(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return json.readTree(r.body());
    }

    private String text(HttpResponse<String> r) {
        return ok(r).get("choices").get(0).get("text").asString();
    }

    private String streamedText(String body) {
        StringBuilder text = new StringBuilder();
        for (String event : Http.events(body)) {
            if (!event.equals("[DONE]")) {
                text.append(
                        json.readTree(event).get("choices").get(0).get("text").asString());
            }
        }
        return text.toString();
    }
}
