package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.llmserve.app.FaultInjectingBackend;
import com.llmserve.app.GpuStandIn;
import com.llmserve.app.GpuStandInTest;
import com.llmserve.app.OpenApiContract;
import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * GPU models without a CPU copy: while the breaker is open they are answered 503 with
 * {@code Retry-After} and the device's health takes the pod out of readiness; a lost device
 * context, which nothing in the process can bring back, also breaks liveness so that the pod is
 * restarted.
 */
@GpuStandInTest
@TestPropertySource(properties = "llmserve.failover.cpu-fallback=never")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NoFallbackIntegrationTests {

    private static final String GREEDY = "{\"model\":\"" + TestModels.TEXT
            + "\",\"prompt\":\"Once upon a time\",\"max_tokens\":6,\"temperature\":0}";

    @LocalServerPort
    int port;

    @Autowired
    ModelRegistry registry;

    @Autowired
    GpuStandIn.Backends backends;

    @Autowired
    CircuitBreakerRegistry breakers;

    @Autowired
    JsonMapper json;

    @Test
    @Order(1)
    void whileTheBreakerIsOpenRequestsGet503WithRetryAfterAndReadinessIsDown() throws Exception {
        ModelsReady.await(registry);
        Http http = new Http(port);
        FaultInjectingBackend gpu = backends.of(TestModels.TEXT);
        CircuitBreaker breaker = breakers.circuitBreaker("gpu-" + TestModels.TEXT);
        assertThat(registry.textModel(TestModels.TEXT).replicas())
                .extracting(r -> r.device())
                .containsExactly(GpuStandIn.DEVICE);
        assertThat(http.post("/v1/completions", GREEDY).statusCode()).isEqualTo(200);
        assertThat(http.get("/actuator/health/readiness").statusCode()).isEqualTo(200);

        breaker.reset();
        gpu.failLikeABadLaunch();
        assertThat(http.post("/v1/completions", GREEDY).statusCode()).isEqualTo(500);
        assertThat(http.post("/v1/completions", GREEDY).statusCode()).isEqualTo(500);

        HttpResponse<String> refused = http.post("/v1/completions", GREEDY);
        assertThat(refused.statusCode()).isEqualTo(503);
        OpenApiContract.load()
                .assertResponse(
                        "POST",
                        "/v1/completions",
                        503,
                        refused.headers().firstValue("content-type").orElse(null),
                        refused.body(),
                        refused.headers().map());
        assertThat(refused.headers().firstValue("Retry-After"))
                .hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isPositive());
        JsonNode error = json.readTree(refused.body()).get("error");
        assertThat(error.get("code").asString()).isEqualTo("device_unavailable");
        assertThat(error.get("type").asString()).isEqualTo("server_error");
        assertThat(error.get("message").asString()).contains(TestModels.TEXT).contains(GpuStandIn.DEVICE);

        HttpResponse<String> readiness = http.get("/actuator/health/readiness");
        assertThat(readiness.statusCode()).isEqualTo(503);
        JsonNode device = json.readTree(readiness.body())
                .get("components")
                .get("gpu")
                .get("components")
                .get("fake-gpu-0");
        assertThat(device.get("status").asString()).isEqualTo("DOWN");
        assertThat(device.get("details").get("problems").toString())
                .contains("no CPU copy")
                .contains(TestModels.TEXT);
        assertThat(http.get("/actuator/health/liveness").statusCode())
                .as("a failing device is not a dead process")
                .isEqualTo(200);

        gpu.heal();
        await().atMost(Duration.ofSeconds(30)).until(() -> breaker.getState() == CircuitBreaker.State.CLOSED);
        assertThat(http.post("/v1/completions", GREEDY).statusCode()).isEqualTo(200);
        assertThat(http.get("/actuator/health/readiness").statusCode()).isEqualTo(200);
    }

    @Test
    @Order(2)
    @DirtiesContext
    void aLostDeviceContextShutsTheDeviceOffAndBreaksLiveness() throws Exception {
        ModelsReady.await(registry);
        Http http = new Http(port);
        FaultInjectingBackend gpu = backends.of(TestModels.TEXT);
        CircuitBreaker breaker = breakers.circuitBreaker("gpu-" + TestModels.TEXT);
        assertThat(http.get("/actuator/health/liveness").statusCode()).isEqualTo(200);

        gpu.failLikeALostContext();
        assertThat(http.post("/v1/completions", GREEDY).statusCode()).isEqualTo(500);

        // one sticky error is enough: no probe could succeed on that context
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.FORCED_OPEN);
        assertThat(http.post("/v1/completions", GREEDY).statusCode()).isEqualTo(503);
        HttpResponse<String> liveness = http.get("/actuator/health/liveness");
        assertThat(liveness.statusCode()).isEqualTo(503);
        JsonNode device = json.readTree(http.get("/actuator/health").body())
                .get("components")
                .get("gpu")
                .get("components")
                .get("fake-gpu-0");
        assertThat(device.get("status").asString()).isEqualTo("DOWN");
        assertThat(device.get("details").get("problems").toString())
                .contains("context lost")
                .contains("CUDA_ERROR_ILLEGAL_ADDRESS");

        // the device seeming to work again changes nothing: only a restart clears a lost context
        gpu.heal();
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.FORCED_OPEN);
        assertThat(http.post("/v1/completions", GREEDY).statusCode()).isEqualTo(503);
    }
}
