package com.llmserve.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One of the images started as production runs it: read-only root with a small /tmp, its non-root
 * user, models mounted read-only, ready once its readiness probe answers 200; and the HTTP calls the
 * tests make to it.
 */
final class ServiceContainer implements AutoCloseable {

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final GenericContainer<?> container;

    private ServiceContainer(GenericContainer<?> container) {
        this.container = container;
    }

    /** Starts {@code image} with {@code models} (a folder or one file) mounted at {@code /models}. */
    static ServiceContainer start(String image, Path models) {
        String target = models.toFile().isDirectory() ? "/models" : "/models/" + models.getFileName();
        GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(image))
                .withExposedPorts(8080)
                .withFileSystemBind(models.toString(), target, BindMode.READ_ONLY)
                .withCreateContainerCmdModifier(
                        cmd -> cmd.getHostConfig().withReadonlyRootfs(true).withTmpFs(Map.of("/tmp", "rw,size=256m")))
                .waitingFor(Wait.forHttp("/actuator/health/readiness")
                        .forStatusCode(200)
                        .withStartupTimeout(Duration.ofMinutes(5)));
        c.start();
        return new ServiceContainer(c);
    }

    /** {@code ../shared/models}, or one file of it. */
    static Path sharedModels(String... file) {
        Path models = Images.REPO.resolveSibling("shared").resolve("models");
        return file.length == 0 ? models : models.resolve(file[0]);
    }

    GenericContainer<?> container() {
        return container;
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(uri(path))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(uri(path))
                        .timeout(Duration.ofMinutes(2))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A component of {@code /actuator/health} ({@code gpu}, {@code model}, ...). */
    JsonNode healthComponent(String name) throws IOException, InterruptedException {
        return JSON.readTree(get("/actuator/health").body()).get("components").get(name);
    }

    /** The text of a greedy completion of {@code prompt} by {@code model}, after checking it answered 200. */
    String greedyCompletion(String model, String prompt, int maxTokens) throws IOException, InterruptedException {
        HttpResponse<String> r = post(
                "/v1/completions",
                "{\"model\":\"" + model + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":" + maxTokens
                        + ",\"temperature\":0}");
        if (r.statusCode() != 200) {
            throw new AssertionError("completion answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body()).get("choices").get(0).get("text").asString();
    }

    private URI uri(String path) {
        return URI.create("http://" + container.getHost() + ":" + container.getMappedPort(8080) + path);
    }

    @Override
    public void close() {
        container.stop();
    }
}
