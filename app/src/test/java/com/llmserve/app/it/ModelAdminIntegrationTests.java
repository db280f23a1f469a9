package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.app.OpenApiContract;
import com.llmserve.app.TestModels;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * {@code POST /admin/models} and {@code DELETE /admin/models/{id}} as an operator meets them:
 * behind the API key, refusing files outside the models folder or that cannot be served (400), an
 * id that is taken (409) and an unknown one (404); a model added loads and answers, a model removed
 * is gone. The folder holds one file that is not a model, listed as skipped. Every answer is
 * checked against {@code openapi.yaml}.
 */
class ModelAdminIntegrationTests {

    private static final String KEY = "sk-admin-test-0123456789";
    private static final Duration LOAD_LIMIT = Duration.ofMinutes(2);

    /** The folder: a link to the text model and a file that is not GGUF. */
    static Path folder() {
        try {
            Path dir =
                    Files.createTempDirectory(Path.of("target"), "admin-models").toAbsolutePath();
            Files.createSymbolicLink(dir.resolve("story.gguf"), TestModels.file(TestModels.TEXT));
            Files.writeString(dir.resolve("notes.gguf"), "not a model");
            Files.writeString(dir.resolveSibling("outside.gguf"), "outside the folder");
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Nested
    @SpringBootTest(
            webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = {
                "llmserve.watch.enabled=false",
                "llmserve.warm-up=false",
                "llmserve.engine.kv-blocks=64",
                "llmserve.security.api-keys=" + KEY
            })
    class Enabled {

        static Path dir;

        @DynamicPropertySource
        static void models(DynamicPropertyRegistry registry) {
            dir = folder();
            registry.add("llmserve.models-dir", dir::toString);
        }

        @LocalServerPort
        int port;

        @Autowired
        JsonMapper json;

        private final OpenApiContract contract = OpenApiContract.load();

        private HttpResponse<String> send(String method, String path, String body, String key) {
            HttpRequest.Builder b = new Http(port)
                    .request(path)
                    .method(
                            method,
                            body == null
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofString(body));
            if (body != null) {
                b.header("Content-Type", "application/json");
            }
            if (key != null) {
                b.header("Authorization", "Bearer " + key);
            }
            HttpResponse<String> r = new Http(port).send(b.build());
            String template = path.startsWith("/admin/models/") ? "/admin/models/x" : path;
            contract.assertResponse(
                    method,
                    template,
                    r.statusCode(),
                    r.headers().firstValue("content-type").orElse(null),
                    r.body(),
                    r.headers().map());
            return r;
        }

        private HttpResponse<String> admin(String method, String path, String body) {
            return send(method, path, body, KEY);
        }

        private JsonNode error(HttpResponse<String> r) {
            return json.readTree(r.body()).get("error");
        }

        @Test
        void theEndpointsNeedTheApiKey() {
            assertThat(send("POST", "/admin/models", "{\"file\":\"story.gguf\"}", null)
                            .statusCode())
                    .isEqualTo(401);
            assertThat(send("POST", "/admin/models", "{\"file\":\"story.gguf\"}", "sk-wrong")
                            .statusCode())
                    .isEqualTo(401);
            assertThat(send("DELETE", "/admin/models/story", null, null).statusCode())
                    .isEqualTo(401);
        }

        @Test
        void filesOutsideTheFolderOrThatCannotBeServedAreRefusedWithWhy() {
            HttpResponse<String> outside = admin("POST", "/admin/models", "{\"file\":\"../outside.gguf\"}");
            assertThat(outside.statusCode()).isEqualTo(400);
            assertThat(error(outside).get("param").asString()).isEqualTo("file");
            assertThat(error(outside).get("code").asString()).isEqualTo("invalid_model_file");
            assertThat(error(outside).get("message").asString()).contains("outside the models folder");

            HttpResponse<String> absolute =
                    admin("POST", "/admin/models", "{\"file\":\"" + dir.resolveSibling("outside.gguf") + "\"}");
            assertThat(absolute.statusCode()).isEqualTo(400);

            HttpResponse<String> missing = admin("POST", "/admin/models", "{\"file\":\"nope.gguf\"}");
            assertThat(missing.statusCode()).isEqualTo(400);
            assertThat(error(missing).get("message").asString()).contains("does not exist");

            HttpResponse<String> notGguf = admin("POST", "/admin/models", "{\"file\":\"notes.gguf\",\"id\":\"n\"}");
            assertThat(notGguf.statusCode()).isEqualTo(400);
            assertThat(error(notGguf).get("message").asString()).contains("not a GGUF file");

            HttpResponse<String> noFile = admin("POST", "/admin/models", "{\"id\":\"x\"}");
            assertThat(noFile.statusCode()).isEqualTo(400);
            assertThat(error(noFile).get("param").asString()).isEqualTo("file");

            HttpResponse<String> badSize =
                    admin("POST", "/admin/models", "{\"file\":\"story.gguf\",\"context_size\":-1}");
            assertThat(badSize.statusCode()).isEqualTo(400);
            assertThat(error(badSize).get("param").asString()).isEqualTo("context_size");
        }

        @Test
        void aModelAddedLoadsAndAnswersATakenIdConflictsAndARemovedModelIsGone() throws Exception {
            HttpResponse<String> added =
                    admin("POST", "/admin/models", "{\"file\":\"story.gguf\",\"id\":\"tale\",\"context_size\":512}");
            assertThat(added.statusCode()).isEqualTo(202);
            assertThat(added.headers().firstValue("Location")).hasValue("/v1/models/tale");
            assertThat(json.readTree(added.body()).get("id").asString()).isEqualTo("tale");

            awaitReady("tale");
            JsonNode model =
                    json.readTree(send("GET", "/v1/models/tale", null, KEY).body());
            assertThat(model.get("max_model_len").asInt()).isEqualTo(512);
            HttpResponse<String> completion = send(
                    "POST",
                    "/v1/completions",
                    "{\"model\":\"tale\",\"prompt\":\"Once upon a time\",\"max_tokens\":4}",
                    KEY);
            assertThat(completion.statusCode()).isEqualTo(200);

            HttpResponse<String> again = admin("POST", "/admin/models", "{\"file\":\"story.gguf\",\"id\":\"tale\"}");
            assertThat(again.statusCode()).isEqualTo(409);
            assertThat(error(again).get("code").asString()).isEqualTo("model_exists");

            HttpResponse<String> removed = admin("DELETE", "/admin/models/tale", null);
            assertThat(removed.statusCode()).isEqualTo(202);
            assertThat(json.readTree(removed.body()).get("deleted").asBoolean()).isTrue();
            assertThat(send("GET", "/v1/models/tale", null, KEY).statusCode()).isEqualTo(404);
            assertThat(send("POST", "/v1/completions", "{\"model\":\"tale\",\"prompt\":\"Hi\",\"max_tokens\":1}", KEY)
                            .statusCode())
                    .isEqualTo(404);
            HttpResponse<String> unknown = admin("DELETE", "/admin/models/tale", null);
            assertThat(unknown.statusCode()).isEqualTo(404);
            assertThat(error(unknown).get("code").asString()).isEqualTo("model_not_found");
        }

        @Test
        void aFileOfTheFolderThatIsNotAModelIsListedWithWhy() {
            JsonNode list = json.readTree(send("GET", "/v1/models", null, KEY).body());
            assertThat(list.get("skipped").toString()).contains("notes.gguf").contains("not a GGUF file");
            assertThat(list.get("data").toString()).doesNotContain("notes");

            HttpResponse<String> r = new Http(port)
                    .send(new Http(port)
                            .request("/actuator/health")
                            .header("Authorization", "Bearer " + KEY)
                            .build());
            JsonNode health = json.readTree(r.body());
            assertThat(health.at("/components/model/details/skipped").toString())
                    .contains(dir.resolve("notes.gguf").toString())
                    .contains("not a GGUF file");
        }

        private void awaitReady(String id) throws InterruptedException {
            long deadline = System.nanoTime() + LOAD_LIMIT.toNanos();
            while (true) {
                HttpResponse<String> r = send("GET", "/v1/models/" + id, null, KEY);
                if (r.statusCode() == 200
                        && "ready".equals(json.readTree(r.body()).get("status").asString())) {
                    return;
                }
                assertThat(System.nanoTime()).as("model %s ready", id).isLessThan(deadline);
                Thread.sleep(50);
            }
        }
    }

    /** Turned off, the endpoints are not there. */
    @Nested
    @SpringBootTest(
            webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = {"llmserve.scan-models-dir=false", "llmserve.admin.enabled=false"})
    class Disabled {

        @LocalServerPort
        int port;

        @Test
        void theEndpointsAreNotFound() {
            assertThat(new Http(port)
                            .post("/admin/models", "{\"file\":\"story.gguf\"}")
                            .statusCode())
                    .isEqualTo(404);
            assertThat(new Http(port)
                            .send(new Http(port)
                                    .request("/admin/models/story")
                                    .DELETE()
                                    .build())
                            .statusCode())
                    .isEqualTo(404);
        }
    }
}
