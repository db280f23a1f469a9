package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.app.OpenApiContract;
import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.app.resilience.ServingPolicies;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The service on a machine without a GPU, as operations see it: logs, the admission bulkhead, health. */
@ServiceTest
@ExtendWith(OutputCaptureExtension.class)
class OperationsIntegrationTests {

    /** Text no log line has any other reason to hold. */
    private static final String SECRET = "Zanzibar quokka 7731";

    @LocalServerPort
    int port;

    @Autowired
    ModelRegistry registry;

    @Autowired
    BulkheadRegistry bulkheads;

    @Autowired
    JsonMapper json;

    @Test
    void noPromptOrCompletionTextReachesTheLogs(CapturedOutput output) throws Exception {
        ModelsReady.await(registry);
        Http http = new Http(port);

        HttpResponse<String> completion = http.post(
                "/v1/completions",
                "{\"model\":\"" + TestModels.TEXT + "\",\"prompt\":\"" + SECRET
                        + ", once upon a time\",\"max_tokens\":24,\"temperature\":0,\"ignore_eos\":true}");
        assertThat(completion.statusCode()).isEqualTo(200);
        String generated = json.readTree(completion.body())
                .get("choices")
                .get(0)
                .get("text")
                .asString();
        assertThat(http.post(
                                "/v1/chat/completions",
                                "{\"model\":\"" + TestModels.TEXT + "\",\"messages\":[{\"role\":\"user\",\"content\":\""
                                        + SECRET + "\"}],\"max_tokens\":8,\"stream\":true}")
                        .statusCode())
                .isEqualTo(200);
        assertThat(http.post(
                                "/v1/embeddings",
                                "{\"model\":\"" + TestModels.EMBEDDING + "\",\"input\":\"" + SECRET + "\"}")
                        .statusCode())
                .isEqualTo(200);
        assertThat(http.post("/tokenize", "{\"model\":\"" + TestModels.TEXT + "\",\"prompt\":\"" + SECRET + "\"}")
                        .statusCode())
                .isEqualTo(200);
        // client errors quoting the request, and a failure while streaming
        assertThat(http.post(
                                "/v1/embeddings",
                                "{\"model\":\"" + TestModels.EMBEDDING + "\",\"input\":\"x\",\"encoding_format\":\""
                                        + SECRET + "\"}")
                        .statusCode())
                .isEqualTo(400);
        assertThat(http.post(
                                "/v1/completions",
                                "{\"model\":\"" + TestModels.TEXT + "\",\"prompt\":\"" + SECRET
                                        + "\",\"max_tokens\":100000}")
                        .statusCode())
                .isEqualTo(400);
        assertThat(http.post("/v1/completions", "{\"model\":\"" + SECRET + "\",\"prompt\":\"x\"}")
                        .statusCode())
                .isEqualTo(404);

        // the capture sees the service's logging (the check would pass vacuously otherwise)
        org.slf4j.LoggerFactory.getLogger(ModelRegistry.class).info("log capture check");
        assertThat(output.getAll()).contains("log capture check");
        assertThat(generated.strip()).hasSizeGreaterThan(20);
        assertThat(output.getAll()).doesNotContain(SECRET).doesNotContain(generated.strip());
    }

    @Test
    void aFullAdmissionBulkheadAnswers429WithRetryAfter() {
        Bulkhead admission = bulkheads.bulkhead(ServingPolicies.ADMISSION);
        BulkheadConfig configured = admission.getBulkheadConfig();
        assertThat(configured.getMaxConcurrentCalls()).as("application.yaml").isEqualTo(1024);
        admission.changeConfig(
                BulkheadConfig.from(configured).maxConcurrentCalls(1).build());
        assertThat(admission.tryAcquirePermission()).isTrue();
        try {
            HttpResponse<String> busy = new Http(port)
                    .post(
                            "/v1/completions",
                            "{\"model\":\"" + TestModels.TEXT + "\",\"prompt\":\"Hi\",\"max_tokens\":2}");

            assertThat(busy.statusCode()).isEqualTo(429);
            OpenApiContract.load()
                    .assertResponse(
                            "POST",
                            "/v1/completions",
                            429,
                            busy.headers().firstValue("content-type").orElse(null),
                            busy.body(),
                            busy.headers().map());
            assertThat(busy.headers().firstValue("Retry-After")).hasValue("1");
            JsonNode error = json.readTree(busy.body()).get("error");
            assertThat(error.get("type").asString()).isEqualTo("rate_limit_error");
            assertThat(error.get("code").asString()).isEqualTo("server_busy");
        } finally {
            admission.onComplete();
            admission.changeConfig(configured);
        }
        assertThat(new Http(port)
                        .post(
                                "/v1/completions",
                                "{\"model\":\"" + TestModels.TEXT + "\",\"prompt\":\"Hi\",\"max_tokens\":2}")
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void withoutAGpuTheGpuComponentIsUpAndSaysWhyAndMetricsAreScraped() throws Exception {
        ModelsReady.await(registry);
        Http http = new Http(port);

        JsonNode readiness =
                json.readTree(http.get("/actuator/health/readiness").body());
        assertThat(readiness.get("status").asString()).isEqualTo("UP");
        JsonNode gpu = readiness.get("components").get("gpu");
        assertThat(gpu.get("status").asString()).isEqualTo("UP");
        assertThat(gpu.get("details").get("devices").asInt()).isZero();
        assertThat(gpu.get("details").get("runtimes").toString()).contains("unavailable");

        HttpResponse<String> scrape = http.get("/actuator/prometheus");
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body())
                .contains("llm_kv_blocks_total_blocks{device=\"cpu\",model=\"" + TestModels.TEXT + "\"}")
                .doesNotContain("llm_gpu_")
                .as("no breaker for models on the CPU")
                .doesNotContain("resilience4j_circuitbreaker_state");
    }
}
