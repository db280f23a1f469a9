package com.llmserve.app.gpu;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The health of one GPU, a member of the {@code gpu} component of the readiness group. It reads
 * the telemetry sampler's latest reading and the device's faults, never the driver itself. Down
 * when a model runs on the device and the device cannot serve it: its context is lost, the driver
 * does not answer (or stopped answering: no reading for three intervals), or a model's breaker has
 * shut the device off with no CPU copy to take its requests. A device no model runs on is up
 * whatever its state, with the trouble in the details: readiness is about serving, and a pod whose
 * models all run elsewhere serves.
 */
final class DeviceHealthIndicator implements HealthIndicator {

    /** Readings older than this many sampling intervals mean the device (or its driver) hangs. */
    static final int STALE_INTERVALS = 3;

    private final GpuDevice device;
    private final GpuTelemetry telemetry;
    private final DeviceFaults faults;
    private final Clock clock;

    DeviceHealthIndicator(GpuDevice device, GpuTelemetry telemetry, DeviceFaults faults, Clock clock) {
        this.device = device;
        this.telemetry = telemetry;
        this.faults = faults;
        this.clock = clock;
    }

    @Override
    public Health health() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("device", device.id());
        details.put("name", device.name());
        List<String> problems = new ArrayList<>();
        faults.lostContext(device.id())
                .ifPresent(reason -> problems.add("context lost (" + reason + "): only a restart brings it back"));
        Optional<GpuTelemetry.Reading> latest = telemetry.latest(device.id());
        if (latest.isEmpty()) {
            problems.add("not read yet");
        } else {
            GpuTelemetry.Reading r = latest.get();
            Duration age = Duration.between(r.at(), clock.instant());
            details.put("readingAgeMillis", age.toMillis());
            if (!r.answered()) {
                problems.add("the driver does not answer: " + r.error());
            } else if (age.compareTo(telemetry.interval().multipliedBy(STALE_INTERVALS)) > 0) {
                problems.add("no reading for " + age.toSeconds() + " s: the device or its driver hangs");
            }
            if (r.memory() != null) {
                details.put("memoryUsedBytes", r.memory().used());
                details.put("memoryTotalBytes", r.memory().total());
            }
            if (r.telemetry() != null) {
                details.put("utilizationPercent", r.telemetry().utilizationPercent());
                details.put("temperatureCelsius", r.telemetry().temperatureCelsius());
                details.put("powerWatts", r.telemetry().powerWatts());
            }
        }
        List<DeviceUser> users = faults.users(device.id());
        Map<String, Object> models = new LinkedHashMap<>();
        List<String> blocked = new ArrayList<>();
        for (DeviceUser u : users) {
            models.put(u.model(), Map.of("circuitBreaker", u.breakerState(), "cpuFallback", u.hasFallback()));
            if (u.blocked()) {
                blocked.add(u.model());
            }
        }
        if (!blocked.isEmpty()) {
            problems.add("shut off the device with no CPU copy to serve them: " + blocked);
        }
        details.put("models", models);
        if (!problems.isEmpty()) {
            details.put("problems", problems);
        }
        boolean down = !users.isEmpty() && !problems.isEmpty();
        return (down ? Health.down() : Health.up()).withDetails(details).build();
    }
}
