package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.app.OpenApiContract;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.UnauthorizedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * API keys as clients meet them: no key, a wrong key and a right one, on the API and on the
 * actuator endpoints configured open or protected. No model is served (none is needed to be let in).
 */
class ApiKeyIntegrationTests {

    private static final String KEY = "sk-test-0123456789abcdef";

    private static HttpResponse<String> get(int port, String path, String authorization) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .GET();
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return new Http(port).send(b.build());
    }

    /** Sends {@code request} as it is written and reads the whole answer. */
    private static String raw(int port, String request) throws IOException {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Keys from the configuration; health open (the default), metrics protected. */
    @Nested
    @SpringBootTest(
            webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = {
                "llmserve.scan-models-dir=false",
                "llmserve.security.api-keys=sk-other," + KEY,
                "llmserve.security.metrics=protected"
            })
    class ConfiguredKeys {

        @LocalServerPort
        int port;

        @Autowired
        JsonMapper json;

        @Test
        void withoutAKeyTheApiAnswers401InOpenAisEnvelopeWithABearerChallenge() {
            HttpResponse<String> r = get(port, "/v1/models", null);

            assertThat(r.statusCode()).isEqualTo(401);
            assertThat(r.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"llmserve\"");
            OpenApiContract.load()
                    .assertResponse(
                            "GET",
                            "/v1/models",
                            401,
                            r.headers().firstValue("content-type").orElse(null),
                            r.body(),
                            r.headers().map());
            assertThat(r.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
            JsonNode error = json.readTree(r.body()).get("error");
            assertThat(error.get("type").asString()).isEqualTo("invalid_request_error");
            assertThat(error.get("message").asString()).contains("Authorization: Bearer");
            assertThat(error.get("code").isNull()).isTrue();
            assertThat(error.get("param").isNull()).isTrue();
            assertThat(get(port, "/v1/models", "Basic " + KEY).statusCode())
                    .as("another scheme is no key")
                    .isEqualTo(401);
            assertThat(get(port, "/v1/models", "Bearer ").statusCode()).isEqualTo(401);
        }

        @Test
        void aWrongKeyIsRefusedWithoutBeingEchoed() {
            HttpResponse<String> r = get(port, "/v1/models", "Bearer sk-wrong-key-123");

            assertThat(r.statusCode()).isEqualTo(401);
            assertThat(r.headers().firstValue("WWW-Authenticate"))
                    .hasValueSatisfying(h -> assertThat(h).contains("invalid_token"));
            JsonNode error = json.readTree(r.body()).get("error");
            assertThat(error.get("code").asString()).isEqualTo("invalid_api_key");
            OpenApiContract.load()
                    .assertResponse(
                            "GET",
                            "/v1/models",
                            401,
                            r.headers().firstValue("content-type").orElse(null),
                            r.body(),
                            r.headers().map());
            assertThat(r.body()).doesNotContain("sk-wrong-key-123");
            assertThat(get(port, "/v1/models", "Bearer " + KEY + "x").statusCode())
                    .isEqualTo(401);
        }

        @Test
        void theRightKeyIsLetIn() {
            assertThat(get(port, "/v1/models", "Bearer " + KEY).statusCode()).isEqualTo(200);
            assertThat(get(port, "/v1/models", "bearer " + KEY).statusCode())
                    .as("the scheme is case-insensitive")
                    .isEqualTo(200);
            assertThat(get(port, "/v1/models", "Bearer sk-other").statusCode()).isEqualTo(200);
        }

        @Test
        void theOpenAiSdkSeesTheRefusalAsAnAuthenticationError() {
            OpenAIClient wrong = OpenAIOkHttpClient.builder()
                    .baseUrl("http://localhost:" + port + "/v1")
                    .apiKey("sk-wrong")
                    .maxRetries(0)
                    .build();
            OpenAIClient right = OpenAIOkHttpClient.builder()
                    .baseUrl("http://localhost:" + port + "/v1")
                    .apiKey(KEY)
                    .maxRetries(0)
                    .build();
            try {
                assertThatThrownBy(() -> wrong.models().list())
                        .isInstanceOfSatisfying(UnauthorizedException.class, e -> assertThat(e.getMessage())
                                .contains("Incorrect API key provided"));
                assertThat(right.models().list().data()).isEmpty();
            } finally {
                wrong.close();
                right.close();
            }
        }

        /**
         * A path that the filters see normalised (health, open) and the routing raw (the models
         * endpoint) is refused before any filter: sent over a raw socket, as clients normalise.
         */
        @Test
        void aPathDressedUpAsTheOpenHealthEndpointIsRefused() throws IOException {
            for (String path : List.of(
                    "/v1/models/../../actuator/health",
                    "/v1/completions;/../../actuator/health",
                    "/actuator/health/../../v1/models",
                    "/actuator/health/%2e%2e/%2e%2e/v1/models")) {
                String answer = raw(port, "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
                assertThat(answer).as(path).startsWith("HTTP/1.1 400");
                assertThat(answer).as(path).doesNotContain("\"data\"");
            }
            assertThat(raw(port, "GET /v1/models HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"))
                    .startsWith("HTTP/1.1 401");
        }

        /** The open health endpoint tells a caller without a key the status only; the details (files, disk) need one. */
        @Test
        void healthShowsItsDetailsOnlyToACallerWithAKey() {
            HttpResponse<String> anonymous = get(port, "/actuator/health", null);
            HttpResponse<String> withKey = get(port, "/actuator/health", "Bearer " + KEY);
            HttpResponse<String> wrongKey = get(port, "/actuator/health", "Bearer sk-wrong");

            assertThat(anonymous.body()).contains("\"status\"").doesNotContain("components", "diskSpace");
            assertThat(wrongKey.body()).doesNotContain("components");
            assertThat(withKey.body()).contains("\"components\"", "diskSpace");
            assertThat(get(port, "/actuator/health/readiness", null).body()).doesNotContain("components");
        }

        @Test
        void aRequestWithoutAKeyIsRefusedBeforeItsBodyIsLookedAt() {
            HttpRequest big = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/completions"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("x".repeat(20 << 20)))
                    .build();

            assertThat(new Http(port).send(big).statusCode()).isEqualTo(401);
        }

        @Test
        void healthIsOpenWhileMetricsAndTheOtherActuatorEndpointsAreProtected() {
            assertThat(get(port, "/actuator/health/liveness", null).statusCode())
                    .isEqualTo(200);
            assertThat(get(port, "/actuator/health", null).statusCode()).isIn(200, 503); // no model: down, but answered
            assertThat(get(port, "/actuator/healthz", null).statusCode())
                    .as("only the health path itself")
                    .isEqualTo(401);
            assertThat(get(port, "/actuator/prometheus", null).statusCode()).isEqualTo(401);
            assertThat(get(port, "/actuator/metrics", null).statusCode()).isEqualTo(401);
            assertThat(get(port, "/actuator/info", null).statusCode()).isEqualTo(401);
            assertThat(get(port, "/actuator/prometheus", "Bearer " + KEY).statusCode())
                    .isEqualTo(200);
        }
    }

    /** Keys from a file; health protected, metrics open (the default). */
    @Nested
    @SpringBootTest(
            webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = {"llmserve.scan-models-dir=false", "llmserve.security.health=protected"})
    class KeyFile {

        @DynamicPropertySource
        static void keyFile(DynamicPropertyRegistry registry) {
            try {
                Path file = Files.createTempFile("llmserve-keys", ".txt");
                file.toFile().deleteOnExit();
                Files.writeString(file, "# issued to the test\n" + KEY + "\n");
                registry.add("llmserve.security.api-keys-file", file::toString);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @LocalServerPort
        int port;

        @Test
        void aKeyFromTheFileLetsIn() {
            assertThat(get(port, "/v1/models", null).statusCode()).isEqualTo(401);
            assertThat(get(port, "/v1/models", "Bearer " + KEY).statusCode()).isEqualTo(200);
        }

        @Test
        void healthIsProtectedWhileMetricsAreOpen() {
            assertThat(get(port, "/actuator/health/liveness", null).statusCode())
                    .isEqualTo(401);
            assertThat(get(port, "/actuator/health/liveness", "Bearer " + KEY).statusCode())
                    .isEqualTo(200);
            assertThat(get(port, "/actuator/prometheus", null).statusCode()).isEqualTo(200);
            assertThat(get(port, "/actuator/metrics/llm.gpu.memory.used", null).statusCode())
                    .as("open, if not found")
                    .isIn(200, 404);
        }
    }
}
