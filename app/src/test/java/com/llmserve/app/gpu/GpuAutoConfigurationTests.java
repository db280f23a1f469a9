package com.llmserve.app.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.backend.gpu.GpuOptions;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class GpuAutoConfigurationTests {

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(GpuAutoConfiguration.class));

    @Test
    void withTheRuntimeOffThePoolIsEmptyAndTheGpuComponentSaysSo() {
        runner.withPropertyValues("llmserve.gpu.runtime=none").run(context -> {
            assertThat(context.getBean(GpuRuntime.class).pool())
                    .hasValueSatisfying(p -> assertThat(p.isEmpty()).isTrue());
            assertThat(context.getBean(GpuDevices.class).devices()).isEmpty();
            HealthContributor gpu = context.getBean("gpuHealthContributor", HealthContributor.class);
            assertThat(((HealthIndicator) gpu)
                            .health()
                            .getDetails()
                            .get("runtimes")
                            .toString())
                    .contains("disabled by configuration");
            assertThat(context.getBean(GpuTelemetry.class).isRunning()).isFalse();
        });
    }

    @Test
    void devicesOfTheApplicationReplaceThePoolAndGetAHealthMemberEach() {
        runner.withUserConfiguration(TwoDevices.class).run(context -> {
            assertThat(context).doesNotHaveBean(GpuRuntime.class);
            CompositeHealthContributor gpu = context.getBean("gpuHealthContributor", CompositeHealthContributor.class);
            assertThat(gpu.stream().map(e -> e.name())).containsExactly("cuda-0", "cuda-1");
        });
    }

    @Test
    void aRuntimeThatCannotBeOpenedLeavesTheServiceOnTheCpuAndSaysWhy() {
        // as in the CPU image, whose kernels jar holds no code object
        GpuRuntime runtime = GpuRuntime.open(() -> {
            throw new IllegalStateException(
                    "/com/llmserve/kernels/code-objects.tsv has no code object for module ELEMENTWISE");
        });

        assertThat(runtime.pool()).isEmpty();
        assertThat(runtime.statuses())
                .singleElement()
                .asString()
                .contains("GPU runtime not opened")
                .contains("no code object");
        runtime.close();
    }

    @Test
    void aTelemetryIntervalThatIsNotPositiveStopsStartup() {
        runner.withPropertyValues("llmserve.gpu.runtime=none", "llmserve.gpu.telemetry-interval=0s")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("telemetry-interval"));
    }

    @Test
    void halfWeightsTakeHalfOfTheFreeMemoryUnlessToldOtherwise() {
        runner.withPropertyValues("llmserve.gpu.runtime=none").run(context -> assertThat(
                        context.getBean(GpuProperties.class).backendOptions().halfWeightShare())
                .isEqualTo(GpuOptions.DEFAULT_HALF_WEIGHT_SHARE));
        for (String on : new String[] {"on", "true"}) {
            runner.withPropertyValues("llmserve.gpu.runtime=none", "llmserve.gpu.half-weights=" + on)
                    .run(context -> assertThat(context.getBean(GpuProperties.class)
                                    .backendOptions()
                                    .halfWeightShare())
                            .isEqualTo(1));
        }
        for (String off : new String[] {"off", "false"}) {
            runner.withPropertyValues("llmserve.gpu.runtime=none", "llmserve.gpu.half-weights=" + off)
                    .run(context -> assertThat(context.getBean(GpuProperties.class)
                                    .backendOptions()
                                    .halfWeights())
                            .isFalse());
        }
        runner.withPropertyValues("llmserve.gpu.runtime=none", "llmserve.gpu.half-weights=sometimes")
                .run(context -> assertThat(context).hasFailed());
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoDevices {
        @Bean
        GpuDevices devices() {
            FakeDevice a = new FakeDevice("cuda:0");
            FakeDevice b = new FakeDevice("cuda:1");
            return new GpuDevices() {
                @Override
                public java.util.List<GpuDevice> devices() {
                    return java.util.List.of(a, b);
                }

                @Override
                public java.util.List<String> statuses() {
                    return java.util.List.of();
                }
            };
        }
    }
}
