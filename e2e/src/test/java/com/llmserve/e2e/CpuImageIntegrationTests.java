package com.llmserve.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
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
    private static final JsonMapper JSON = ServiceContainer.JSON;

    private static ServiceContainer service;

    @BeforeAll
    static void buildAndStart() throws Exception {
        Images.requireDocker();
        Images.build(
                "Dockerfile.cpu",
                System.getProperty("e2e.buildImage", "local/jdk25:bookworm"),
                System.getProperty("e2e.baseImage", "local/debian:bookworm"),
                IMAGE);
        service = ServiceContainer.start(IMAGE, ServiceContainer.sharedModels());
    }

    @AfterAll
    static void stopAndRemove() throws Exception {
        if (service != null) {
            service.close();
        }
        Images.remove(IMAGE);
    }

    @Test
    void theContainerRunsAsItsNonRootUserOnAReadOnlyRoot() throws Exception {
        var id = service.container().execInContainer("id", "-u");
        assertThat(id.getStdout().trim()).isEqualTo("10001");
        var write = service.container().execInContainer("/bin/bash", "-c", "touch /opt/x 2>&1 || echo denied");
        assertThat(write.getStdout()).contains("denied");
    }

    @Test
    void aGreedyCompletionContinuesTheStory() throws Exception {
        HttpResponse<String> r = service.post(
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
        HttpResponse<String> r = service.post(
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
        HttpResponse<String> r = service.post(
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
        HttpResponse<String> r = service.post("/v1/completions", "{\"model\":\"no-such-model\",\"prompt\":\"hi\"}");
        assertThat(r.statusCode()).isEqualTo(404);
        JsonNode error = JSON.readTree(r.body()).get("error");
        assertThat(error.get("type").asString()).isEqualTo("invalid_request_error");
        assertThat(error.get("param").asString()).isEqualTo("model");
        assertThat(error.get("message").asString()).contains("no-such-model");
    }
}
