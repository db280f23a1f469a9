package com.llmserve.app.gpu;

import com.llmserve.gpu.DevicePool;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class GpuAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GpuAutoConfiguration.class));

    @Test
    void withTheRuntimeOffThePoolIsEmptyAndTheGpuComponentSaysSo() {
        runner.withPropertyValues("llmserve.gpu.runtime=none").run(context -> {
            assertThat(context.getBean(DevicePool.class).isEmpty()).isTrue();
            assertThat(context.getBean(GpuDevices.class).devices()).isEmpty();
            HealthContributor gpu = context.getBean("gpuHealthContributor", HealthContributor.class);
            assertThat(((HealthIndicator) gpu).health().getDetails().get("runtimes").toString()).contains("disabled by configuration");
            assertThat(context.getBean(GpuTelemetry.class).isRunning()).isFalse();
        });
    }

    @Test
    void devicesOfTheApplicationReplaceThePoolAndGetAHealthMemberEach() {
        runner.withUserConfiguration(TwoDevices.class).run(context -> {
            assertThat(context).doesNotHaveBean(DevicePool.class);
            CompositeHealthContributor gpu = context.getBean("gpuHealthContributor", CompositeHealthContributor.class);
            assertThat(gpu.stream().map(e -> e.name())).containsExactly("cuda-0", "cuda-1");
        });
    }

    @Test
    void aTelemetryIntervalThatIsNotPositiveStopsStartup() {
        runner.withPropertyValues("llmserve.gpu.runtime=none", "llmserve.gpu.telemetry-interval=0s")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause().hasMessageContaining("telemetry-interval"));
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
