package com.llmserve.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

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

    private static ServiceContainer service;

    @BeforeAll
    static void buildAndStart() throws Exception {
        Images.requireDocker();
        Images.build(
                "Dockerfile.rocm",
                System.getProperty("e2e.buildImage", "local/jdk25:bookworm"),
                System.getProperty("e2e.rocmBaseImage", "local/rocm:bookworm"),
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
    void itLoadsTheHipRuntimeFindsNoAmdDeviceAndSaysSo() throws Exception {
        JsonNode gpu = service.healthComponent("gpu");
        assertThat(gpu.get("status").asString()).isEqualTo("UP");
        assertThat(gpu.get("details").get("devices").asInt()).isZero();
        // the runtime's own version: libamdhip64 loaded in the image and answered hipGetDeviceCount
        assertThat(gpu.get("details").get("runtimes").toString())
                .contains("hip: unavailable, no AMD device (HIP runtime 5.2");
    }

    @Test
    void itServesOnTheCpu() throws Exception {
        assertThat(service.greedyCompletion("stories260K", "Once upon a time", 8))
                .startsWith(", there was a little girl");
        JsonNode model =
                service.healthComponent("model").get("details").get("models").get("stories260K");
        assertThat(model.get("backend").asString()).startsWith("cpu");
    }
}
