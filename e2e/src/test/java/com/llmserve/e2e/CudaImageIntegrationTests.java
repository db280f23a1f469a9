package com.llmserve.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

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

    private static ServiceContainer service;

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
        service = ServiceContainer.start(IMAGE, ServiceContainer.sharedModels("stories260K.gguf"));
    }

    @AfterAll
    static void stopAndRemove() throws Exception {
        if (service != null) {
            service.close();
        }
        Images.remove(IMAGE);
    }

    @Test
    void itCarriesNvidiaCodeObjectsOnly() throws Exception {
        List<String> codeObjects = service.container()
                .copyFileFromContainer("/opt/llmserve/app.jar", CudaImageIntegrationTests::codeObjects);
        // every module built by nvcc in the image: exact SASS for sm_80 and sm_90, PTX for newer GPUs
        for (String module :
                List.of("elementwise", "norm", "quant", "dequant", "gemv", "mmq", "attention", "sample", "encoder")) {
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
        JsonNode gpu = service.healthComponent("gpu");
        assertThat(gpu.get("status").asString()).isEqualTo("UP");
        assertThat(gpu.get("details").get("devices").asInt()).isZero();
        assertThat(gpu.get("details").get("runtimes").toString()).contains("cuda: unavailable, no NVIDIA driver");
    }

    @Test
    void itServesOnTheCpu() throws Exception {
        assertThat(service.greedyCompletion("stories260K", "Once upon a time", 8))
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
}
