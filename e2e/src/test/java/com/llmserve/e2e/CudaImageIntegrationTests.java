package com.llmserve.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
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
 * Builds the CUDA image from {@code docker/Dockerfile.cuda} as CI can: the build stage on
 * {@code local/cuda:bookworm} (this machine's CUDA 13 nvcc on Debian bookworm, in place of NVIDIA's
 * devel image), the JDK from {@code local/jdk25:bookworm}, the runtime on {@code local/debian:bookworm}
 * (in place of NVIDIA's runtime image, which CI cannot pull and which Debian has no cuBLAS 12 or 13
 * to replace). Started without an NVIDIA driver, it must carry the cubin and PTX code objects, say in
 * its health that the CUDA driver is missing, and serve on the CPU. What this does not show: anything
 * on an NVIDIA GPU from the image (the GPU suites run on the device machines from jars), or NVIDIA's
 * base images.
 */
class CudaImageIntegrationTests {

    private static final String IMAGE = Images.tag("cuda");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static GenericContainer<?> service;

    @BeforeAll
    static void buildAndStart() throws Exception {
        Images.requireDocker();
        Images.build(
                "Dockerfile.cuda",
                Map.of(
                        "BUILD_IMAGE", System.getProperty("e2e.cudaBuildImage", "local/cuda:bookworm"),
                        "JDK_IMAGE", System.getProperty("e2e.buildImage", "local/jdk25:bookworm"),
                        "BASE_IMAGE", System.getProperty("e2e.baseImage", "local/debian:bookworm")),
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
    void itCarriesNvidiaCodeObjectsOnly() throws Exception {
        List<String> codeObjects =
                service.copyFileFromContainer("/opt/llmserve/app.jar", CudaImageIntegrationTests::codeObjects);
        // every module built by nvcc in the image: exact SASS for sm_80 and sm_90, PTX for newer GPUs
        for (String module :
                List.of("elementwise", "norm", "quant", "dequant", "gemv", "attention", "sample", "encoder")) {
            assertThat(codeObjects)
                    .contains(
                            "com/llmserve/kernels/" + module + ".sm_80.cubin",
                            "com/llmserve/kernels/" + module + ".sm_90.cubin",
                            "com/llmserve/kernels/" + module + ".compute_80.ptx");
        }
        assertThat(codeObjects).noneMatch(name -> name.endsWith(".hsaco"));
    }

    @Test
    void itFindsNoNvidiaDriverAndSaysSo() throws Exception {
        JsonNode gpu =
                JSON.readTree(get("/actuator/health").body()).get("components").get("gpu");
        assertThat(gpu.get("status").asString()).isEqualTo("UP");
        assertThat(gpu.get("details").get("devices").asInt()).isZero();
        assertThat(gpu.get("details").get("runtimes").toString()).contains("cuda: unavailable, no NVIDIA driver");
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
    }

    /** The code objects in the kernels jar nested in the service's jar. */
    private static List<String> codeObjects(InputStream appJar) throws IOException {
        List<String> found = new ArrayList<>();
        ZipInputStream app = new ZipInputStream(appJar);
        for (ZipEntry e; (e = app.getNextEntry()) != null; ) {
            if (e.getName().matches("BOOT-INF/lib/kernels-.*\\.jar")) {
                ZipInputStream kernels = new ZipInputStream(app);
                for (ZipEntry k; (k = kernels.getNextEntry()) != null; ) {
                    if (k.getName().matches(".*\\.(cubin|ptx|hsaco)")) {
                        found.add(k.getName());
                    }
                }
            }
        }
        return found;
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
