package com.llmserve.app.gpu;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;

/** Builds the {@code gpu} health component: one member per device, or one line saying why there is none. */
final class GpuHealth {

    private GpuHealth() {}

    static HealthContributor of(GpuDevices devices, GpuTelemetry telemetry, DeviceFaults faults, Clock clock) {
        if (devices.devices().isEmpty()) {
            // nothing to watch: up, saying what discovery found (e.g. hipErrorNoDevice, no libcuda)
            HealthIndicator none = () -> Health.up()
                    .withDetail("devices", 0)
                    .withDetail("runtimes", devices.statuses())
                    .build();
            return none;
        }
        Map<String, HealthContributor> members = new LinkedHashMap<>();
        for (GpuDevice d : devices.devices()) {
            // member names may not hold the colon of "cuda:0"
            members.put(d.id().replace(':', '-'), new DeviceHealthIndicator(d, telemetry, faults, clock));
        }
        return CompositeHealthContributor.fromMap(members);
    }
}
