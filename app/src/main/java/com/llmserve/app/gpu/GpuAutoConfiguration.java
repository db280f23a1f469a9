package com.llmserve.app.gpu;

import com.llmserve.gpu.DevicePool;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

/**
 * Wires the GPU runtime for operations: the device pool (one per process; closed after the
 * models, which stop earlier in the lifecycle), the telemetry sampler, the {@code llm.gpu.*}
 * meters, the {@code gpu} health component and the record of device faults. An application (or a
 * test) that brings its own {@link GpuDevices} opens no pool.
 */
@AutoConfiguration
@EnableConfigurationProperties(GpuProperties.class)
public class GpuAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean({DevicePool.class, GpuDevices.class})
    DevicePool gpuDevicePool(GpuProperties properties) {
        // on a machine without a GPU this finds none (the statuses say why) and the service runs on the CPU
        return DevicePool.open(properties.runtime());
    }

    @Bean
    @ConditionalOnMissingBean
    GpuDevices gpuDevices(ObjectProvider<DevicePool> pool) {
        DevicePool p = pool.getIfAvailable();
        return p == null ? GpuDevices.NONE : new PoolDevices(p);
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
