package com.llmserve.app.gpu;

import java.time.Clock;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

/**
 * Wires the GPU runtime: its device pool (one per process; closed after the models, which stop
 * earlier in the lifecycle and whose backends run on its devices), the telemetry sampler, the
 * {@code llm.gpu.*} meters, the {@code gpu} health component and the record of device faults. An
 * application (or a test) that brings its own {@link GpuDevices} opens no pool.
 */
@AutoConfiguration
@EnableConfigurationProperties(GpuProperties.class)
public class GpuAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean({GpuRuntime.class, GpuDevices.class})
    GpuRuntime gpuRuntime(GpuProperties properties) {
        // on a machine without a GPU this finds none (the statuses say why) and the service runs on the CPU
        return GpuRuntime.open(properties.runtime());
    }

    @Bean
    @ConditionalOnMissingBean
    GpuDevices gpuDevices(ObjectProvider<GpuRuntime> runtime) {
        GpuRuntime r = runtime.getIfAvailable();
        if (r == null) {
            return GpuDevices.NONE;
        }
        return r.pool().<GpuDevices>map(PoolDevices::new).orElseGet(() -> new GpuDevices() {
            @Override
            public List<GpuDevice> devices() {
                return List.of();
            }

            @Override
            public List<String> statuses() {
                return r.statuses();
            }
        });
    }

    @Bean
    @ConditionalOnMissingBean
    DeviceFaults deviceFaults(ApplicationEventPublisher events) {
        return new DeviceFaults(events);
    }

    @Bean
    GpuTelemetry gpuTelemetry(GpuDevices devices, GpuProperties properties, DeviceFaults faults) {
        return new GpuTelemetry(devices, properties.telemetryInterval(), faults, Clock.systemUTC());
    }

    @Bean
    GpuMetrics gpuMetrics(GpuDevices devices, GpuTelemetry telemetry) {
        return new GpuMetrics(devices, telemetry);
    }

    /** The {@code gpu} health component (the bean name without its suffix), in the readiness group. */
    @Bean
    HealthContributor gpuHealthContributor(GpuDevices devices, GpuTelemetry telemetry, DeviceFaults faults) {
        return GpuHealth.of(devices, telemetry, faults, Clock.systemUTC());
    }
}
