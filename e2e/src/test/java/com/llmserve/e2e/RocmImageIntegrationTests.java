package com.llmserve.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
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
 * Builds the ROCm image from {@code docker/Dockerfile.rocm} as CI can: the build stage on the local
 * JDK image (bookworm's clang-19 compiles the HSACO code objects), the runtime on
 * {@code local/rocm:bookworm} (Debian's HIP 5.2 runtime and rocm-smi, in place of AMD's ROCm 6
 * image, which CI cannot pull). Started on a machine without an AMD GPU, it must load the real HIP
 * library, say in its health that there is no AMD device, and serve on the CPU. What this does not
 * show: anything on an AMD GPU, or AMD's own base image (rocBLAS and MIOpen are not in bookworm).
 */
class RocmImageIntegrationTests {

    private static final String IMAGE = Images.tag("rocm");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static GenericContainer<?> service;

    @BeforeAll
    static void buildAndStart() throws Exception {
        Images.requireDocker();
        Images.build(
                "Dockerfile.rocm",
                System.getProperty("e2e.buildImage", "local/jdk25:bookworm"),
                System.getProperty("e2e.rocmBaseImage", "local/rocm:bookworm"),
                IMAGE);
        Path models = Images.REPO.resolveSibling("shared").resolve("models");
        service = new GenericContainer<>(DockerImageName.parse(IMAGE))
                .withExposedPorts(8080)
                .withFileSystemBind(
                        models.resolve("stories260K.gguf").toString(), "/models/stories260K.gguf", BindMode.READ_ONLY)
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
    void itLoadsTheHipRuntimeFindsNoAmdDeviceAndSaysSo() throws Exception {
        JsonNode gpu =
                JSON.readTree(get("/actuator/health").body()).get("components").get("gpu");
        assertThat(gpu.get("status").asString()).isEqualTo("UP");
        assertThat(gpu.get("details").get("devices").asInt()).isZero();
        // the runtime's own version: libamdhip64 loaded in the image and answered hipGetDeviceCount
        assertThat(gpu.get("details").get("runtimes").toString())
                .contains("hip: unavailable, no AMD device (HIP runtime 5.2");
    }

    @Test
    void itServesOnTheCpu() throws Exception {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(uri("/v1/completions"))
                        .timeout(Duration.ofMinutes(2))
                        .header("Content-Type", "application/json")
                        .POST(
                                HttpRequest.BodyPublishers.ofString(
                                        "{\"model\":\"stories260K\",\"prompt\":\"Once upon a time\",\"max_tokens\":8,\"temperature\":0}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(r.body()).get("choices").get(0).get("text").asString())
                .startsWith(", there was a little girl");
        JsonNode model = JSON.readTree(get("/actuator/health").body())
                .get("components")
                .get("model")
                .get("details")
                .get("models")
                .get("stories260K");
        assertThat(model.get("backend").asString()).startsWith("cpu");
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(uri(path))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(String path) {
        return URI.create("http://" + service.getHost() + ":" + service.getMappedPort(8080) + path);
    }
}
