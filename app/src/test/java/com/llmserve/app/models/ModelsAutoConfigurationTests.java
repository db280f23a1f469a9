package com.llmserve.app.models;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.app.TestModels;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.model.ModelKind;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** What the service decides to serve from its configuration, and how a wrong configuration stops it. */
class ModelsAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ModelsAutoConfiguration.class))
            .withPropertyValues(
                    "llmserve.models-dir=" + TestModels.DIR, "llmserve.warm-up=false", "llmserve.engine.kv-blocks=64");

    @BeforeAll
    static void folder() {
        TestModels.folder();
    }

    @Test
    void everyFileOfTheFolderIsServedUnderItsNameWithTheKindOfItsArchitecture() {
        runner.run(context -> {
            ModelRegistry registry = context.getBean(ModelRegistry.class);
            assertThat(registry.statuses())
                    .extracting(ModelRegistry.Status::id)
                    .containsExactly(TestModels.EMBEDDING, TestModels.TEXT);
            assertThat(registry.statuses())
                    .extracting(s -> s.plan().kind())
                    .containsExactly(ModelKind.EMBEDDING, ModelKind.COMPLETION);
            assertThat(registry.statuses()).noneMatch(s -> s.plan().configured());
        });
    }

    @Test
    void cpuBackendsAreBatchInvariantUnlessTurnedOff() {
        runner.run(context -> {
            try (com.llmserve.engine.backend.Backend be =
                    context.getBean(BackendProvider.class).create(com.llmserve.engine.backend.BackendChoice.CPU, "m")) {
                assertThat(be.description()).contains("batch-invariant");
            }
        });
        runner.withPropertyValues("llmserve.engine.batch-invariant=off").run(context -> {
            try (com.llmserve.engine.backend.Backend be =
                    context.getBean(BackendProvider.class).create(com.llmserve.engine.backend.BackendChoice.CPU, "m")) {
                assertThat(be.description()).doesNotContain("batch-invariant");
            }
        });
    }

    @Test
    void theCpuKernelsSettingReachesTheCpuBackends() {
        runner.withPropertyValues("llmserve.engine.cpu-kernels=java").run(context -> {
            try (com.llmserve.engine.backend.Backend be =
                    context.getBean(BackendProvider.class).create(com.llmserve.engine.backend.BackendChoice.CPU, "m")) {
                assertThat(be.description()).contains("java kernels");
            }
        });
        runner.run(context -> {
            try (com.llmserve.engine.backend.Backend be =
                    context.getBean(BackendProvider.class).create(com.llmserve.engine.backend.BackendChoice.CPU, "m")) {
                // auto: the native kernels wherever the library runs
                assertThat(be.description())
                        .contains(
                                com.llmserve.engine.backend.cpu.CpuBackend.nativeKernelsAvailable()
                                        ? "native "
                                        : "java kernels");
            }
        });
        runner.withPropertyValues("llmserve.engine.cpu-kernels=fast")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void aKvCacheTypeOtherThanF16OrQ8_0StopsStartupNamingTheProperty() {
        runner.withPropertyValues("llmserve.engine.kv-cache-type=fp8").run(context -> assertThat(context)
                .hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("llmserve.engine.kv-cache-type must be one of f16, q8_0"));
    }

    @Test
    void aConfiguredModelIsServedUnderItsIdInsteadOfTheSameFileOfTheFolder() {
        runner.withPropertyValues(
                        "llmserve.models[0].id=story",
                        "llmserve.models[0].path=" + TestModels.file(TestModels.TEXT),
                        "llmserve.models[0].context-size=256")
                .run(context -> {
                    ModelRegistry registry = context.getBean(ModelRegistry.class);
                    assertThat(registry.statuses())
                            .extracting(ModelRegistry.Status::id)
                            .containsExactly("story", TestModels.EMBEDDING);
                    assertThat(registry.statuses().getFirst().plan().configured())
                            .isTrue();
                    assertThat(registry.statuses().getFirst().plan().contextSize())
                            .isEqualTo(256);
                });
    }

    @Test
    void withoutScanningOnlyConfiguredModelsAreServed() {
        runner.withPropertyValues(
                        "llmserve.scan-models-dir=false", "llmserve.models[0].path=" + TestModels.file(TestModels.TEXT))
                .run(context -> assertThat(context.getBean(ModelRegistry.class).statuses())
                        .extracting(ModelRegistry.Status::id)
                        .containsExactly(TestModels.TEXT));
    }

    @Test
    void aGpuBackendStopsStartupWhileNoGpuBackendIsBuiltIn() {
        runner.withPropertyValues(
                        "llmserve.models[0].path=" + TestModels.file(TestModels.TEXT), "llmserve.models[0].backend=gpu")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("no GPU backend available")
                        .hasMessageContaining(TestModels.TEXT));
        runner.withPropertyValues("llmserve.backend=gpu").run(context -> assertThat(context)
                .hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("llmserve.backend is gpu")
                .hasMessageContaining("no GPU backend available"));
    }

    @Test
    void aConfiguredFileThatDoesNotExistStopsStartup() {
        runner.withPropertyValues("llmserve.models[0].id=ghost", "llmserve.models[0].path=/nowhere/ghost.gguf")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("'ghost'")
                        .hasMessageContaining("does not exist"));
    }

    @Test
    void aConfiguredKindThatContradictsTheFileStopsStartup() {
        runner.withPropertyValues(
                        "llmserve.models[0].path=" + TestModels.file(TestModels.TEXT),
                        "llmserve.models[0].kind=embedding")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("is a completion model (llama)"));
    }

    @Test
    void twoConfiguredModelsWithOneIdStopStartup() {
        runner.withPropertyValues(
                        "llmserve.models[0].id=a",
                        "llmserve.models[0].path=" + TestModels.file(TestModels.TEXT),
                        "llmserve.models[1].id=a",
                        "llmserve.models[1].path=" + TestModels.file(TestModels.EMBEDDING))
                .run(context ->
                        assertThat(context).hasFailed().getFailure().rootCause().hasMessageContaining("used twice"));
    }

    @Test
    void aBackendProviderOfTheApplicationReplacesTheCpuDefault() {
        runner.withUserConfiguration(GpuBuild.class)
                .withPropertyValues("llmserve.backend=gpu")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(BackendProvider.class)).isInstanceOf(GpuBuild.Provider.class);
                });
    }

    /** A build with another backend: the application's provider wins. */
    @Configuration(proxyBeanMethods = false)
    static class GpuBuild {

        static final class Provider implements BackendProvider {
            @Override
            public boolean available(BackendChoice choice) {
                return true;
            }

            @Override
            public Backend create(BackendChoice choice, String modelId) {
                return new CpuBackend(1);
            }
        }

        @Bean
        BackendProvider gpuProvider() {
            return new Provider();
        }
    }
}
