package com.llmserve.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Builds the CPU image from {@code docker/Dockerfile.cpu} (on the base images CI makes), starts it
 * read-only as its non-root user with {@code ../shared/models} mounted, waits for readiness and
 * drives the real HTTP API. Skipped without a Docker engine, unless {@code LLMSERVE_E2E_REQUIRED}
 * is set (CI sets it: there the test must run).
 */
class CpuImageIntegrationTests {

    private static final String IMAGE = Images.tag("cpu");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static GenericContainer<?> service;

    @BeforeAll
    static void buildAndStart() throws Exception {
        Images.requireDocker();
        Images.build(
                "Dockerfile.cpu",
                System.getProperty("e2e.buildImage", "local/jdk25:bookworm"),
                System.getProperty("e2e.baseImage", "local/debian:bookworm"),
                IMAGE);
        Path models = Images.REPO.resolveSibling("shared").resolve("models");
        service = new GenericContainer<>(DockerImageName.parse(IMAGE))
                .withExposedPorts(8080)
                .withFileSystemBind(models.toString(), "/models", BindMode.READ_ONLY)
                .withCreateContainerCmdModifier(
                        cmd -> cmd.getHostConfig().withReadonlyRootfs(true).withTmpFs(Map.of("/tmp", "rw,size=256m")))
                .waitingFor(Wait.forHttp("/actuator/health/readiness")
                        .forStatusCode(200)
                        .withStartupTimeout(Duration.ofMinutes(5)));
        service.start();
    }

    @AfterAll
    static void stopAndRemove() throws Exception {
        if (service != null) {
            service.stop();
        }
        Images.remove(IMAGE);
    }

    @Test
    void theContainerRunsAsItsNonRootUserOnAReadOnlyRoot() throws Exception {
        var id = service.execInContainer("id", "-u");
        assertThat(id.getStdout().trim()).isEqualTo("10001");
        var write = service.execInContainer("/bin/bash", "-c", "touch /opt/x 2>&1 || echo denied");
        assertThat(write.getStdout()).contains("denied");
    }

    @Test
    void aGreedyCompletionContinuesTheStory() throws Exception {
        HttpResponse<String> r = post(
                "/v1/completions",
                "{\"model\":\"stories260K\",\"prompt\":\"Once upon a time\",\"max_tokens\":16,\"temperature\":0}");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(r.body());
        assertThat(body.get("choices").get(0).get("text").asString())
                .startsWith(", there was a little girl named Lily");
        assertThat(body.get("usage").get("completion_tokens").asInt()).isEqualTo(16);
    }

    @Test
    void aStreamingChatArrivesAsServerSentEventsEndingInDone() throws Exception {
        HttpResponse<String> r = post(
                "/v1/chat/completions",
                "{\"model\":\"stories260K\",\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"Tell me a story\"}],\"max_tokens\":12,\"stream\":true,\"stream_options\":{\"include_usage\":true}}");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
        List<String> events = r.body()
                .lines()
                .filter(l -> l.startsWith("data: "))
                .map(l -> l.substring(6))
                .toList();
        assertThat(events.getLast()).isEqualTo("[DONE]");
        JsonNode first = JSON.readTree(events.getFirst());
        assertThat(first.get("object").asString()).isEqualTo("chat.completion.chunk");
        JsonNode usage = JSON.readTree(events.get(events.size() - 2));
        assertThat(usage.get("choices")).isEmpty();
        assertThat(usage.get("usage").get("completion_tokens").asInt()).isEqualTo(12);
    }

    @Test
    void embeddingsAreUnitVectorsOfTheModelsWidth() throws Exception {
        HttpResponse<String> r = post(
                "/v1/embeddings",
                "{\"model\":\"all-MiniLM-L6-v2-q8_0\",\"input\":[\"The weather is lovely today.\",\"It's so sunny outside!\"]}");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode data = JSON.readTree(r.body()).get("data");
        assertThat(data).hasSize(2);
        double norm = 0;
        for (JsonNode v : data.get(0).get("embedding")) {
            norm += v.asDouble() * v.asDouble();
        }
        assertThat(data.get(0).get("embedding")).hasSize(384);
        assertThat(Math.sqrt(norm)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-3));
    }

    @Test
    void anUnknownModelIsA404InTheOpenAiEnvelope() throws Exception {
        HttpResponse<String> r = post("/v1/completions", "{\"model\":\"no-such-model\",\"prompt\":\"hi\"}");
        assertThat(r.statusCode()).isEqualTo(404);
        JsonNode error = JSON.readTree(r.body()).get("error");
        assertThat(error.get("type").asString()).isEqualTo("invalid_request_error");
        assertThat(error.get("param").asString()).isEqualTo("model");
        assertThat(error.get("message").asString()).contains("no-such-model");
    }

    private static HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        URI uri = URI.create("http://" + service.getHost() + ":" + service.getMappedPort(8080) + path);
        return HTTP.send(
                HttpRequest.newBuilder(uri)
                        .timeout(Duration.ofMinutes(2))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
