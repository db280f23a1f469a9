package com.llmserve.app.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.gpu.GpuCallException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

class DeviceHealthIndicatorTests {

    private final FakeDevice device = new FakeDevice("cuda:1");
    private final List<Object> events = new ArrayList<>();
    private final DeviceFaults faults = new DeviceFaults(events::add);
    private final MutableClock clock = new MutableClock();
    private final GpuTelemetry telemetry = new GpuTelemetry(device.asDevices(), Duration.ofSeconds(5), faults, clock);
    private final DeviceHealthIndicator health = new DeviceHealthIndicator(device, telemetry, faults, clock);
    private final User user = new User();

    @Test
    void aDeviceServingItsModelsIsUpWithItsReadings() {
        faults.register("cuda:1", user);
        telemetry.sampleAll();

        Health h = health.health();

        assertThat(h.getStatus()).isEqualTo(Status.UP);
        assertThat(h.getDetails())
                .containsEntry("device", "cuda:1")
                .containsEntry("memoryUsedBytes", 10L << 30)
                .containsEntry("utilizationPercent", 75)
                .containsKey("models")
                .doesNotContainKey("problems");
    }

    @Test
    void aDriverThatStopsAnsweringTakesAUsedDeviceDown() {
        faults.register("cuda:1", user);
        device.driverError =
                new GpuCallException("cuda", "cuMemGetInfo_v2", 999, "CUDA_ERROR_UNKNOWN", "unknown error", false);
        telemetry.sampleAll();

        Health h = health.health();

        assertThat(h.getStatus()).isEqualTo(Status.DOWN);
        assertThat(h.getDetails().get("problems").toString())
                .contains("does not answer")
                .contains("CUDA_ERROR_UNKNOWN");
    }

    @Test
    void aReadingThreeIntervalsOldMeansTheDeviceHangs() {
        faults.register("cuda:1", user);
        telemetry.sampleAll();
        clock.advance(Duration.ofSeconds(14));
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);

        clock.advance(Duration.ofSeconds(2));

        Health h = health.health();
        assertThat(h.getStatus()).isEqualTo(Status.DOWN);
        assertThat(h.getDetails().get("problems").toString()).contains("no reading for 16 s");
    }

    @Test
    void aModelShutOffTheDeviceWithoutACpuCopyTakesItDown() {
        faults.register("cuda:1", user);
        telemetry.sampleAll();
        user.blocked = true;

        Health h = health.health();

        assertThat(h.getStatus()).isEqualTo(Status.DOWN);
        assertThat(h.getDetails().get("problems").toString())
                .contains("no CPU copy")
                .contains("m1");
    }

    @Test
    void aLostContextShutsItsModelsOffTheDeviceTakesItDownAndBreaksLivenessOnce() {
        faults.register("cuda:1", user);
        telemetry.sampleAll();
        GpuCallException sticky = new GpuCallException(
                "cuda", "cuStreamSynchronize", 700, "CUDA_ERROR_ILLEGAL_ADDRESS", "illegal", false);

        faults.report("cuda:1", new RuntimeException("step failed", sticky));
        faults.report("cuda:1", sticky);

        assertThat(user.lost).isEqualTo(1);
        assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
        assertThat(events).singleElement().isInstanceOfSatisfying(AvailabilityChangeEvent.class, e -> assertThat(
                        e.getState())
                .isEqualTo(LivenessState.BROKEN));
    }

    @Test
    void anOrdinaryDeviceErrorIsTheBreakersBusinessNotLiveness() {
        faults.register("cuda:1", user);
        faults.report(
                "cuda:1",
                new GpuCallException("cuda", "cuMemAlloc_v2", 2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory", true));

        assertThat(faults.lostContext("cuda:1")).isEmpty();
        assertThat(user.lost).isZero();
        assertThat(events).isEmpty();
    }

    @Test
    void aDeviceNoModelUsesStaysUpWhateverItsStateSoReadinessFollowsServing() {
        device.driverError =
                new GpuCallException("cuda", "cuMemGetInfo_v2", 700, "CUDA_ERROR_ILLEGAL_ADDRESS", "illegal", false);
        telemetry.sampleAll();

        Health h = health.health();

        assertThat(h.getStatus()).isEqualTo(Status.UP);
        assertThat(h.getDetails().get("problems").toString())
                .contains("context lost")
                .contains("does not answer");
        assertThat(events).as("nothing runs on it: no restart needed").isEmpty();
    }

    @Test
    void theGpuComponentHasAMemberPerDeviceOrSaysWhyThereIsNone() {
        assertThat(GpuHealth.of(device.asDevices(), telemetry, faults, clock))
                .isInstanceOfSatisfying(CompositeHealthContributor.class, c -> assertThat(c.getContributor("cuda-1"))
                        .isInstanceOf(DeviceHealthIndicator.class));
        assertThat(GpuHealth.of(GpuDevices.NONE, telemetry, faults, clock))
                .isInstanceOfSatisfying(HealthIndicator.class, none -> {
                    assertThat(none.health().getStatus()).isEqualTo(Status.UP);
                    assertThat(none.health().getDetails()).containsEntry("devices", 0);
                });
    }

    private static final class User implements DeviceUser {
        volatile boolean blocked;
        volatile int lost;

        @Override
        public String model() {
            return "m1";
        }

        @Override
        public String breakerState() {
            return blocked ? "OPEN" : "CLOSED";
        }

        @Override
        public boolean hasFallback() {
            return false;
        }

        @Override
        public boolean blocked() {
            return blocked;
        }

        @Override
        public void deviceLost(String reason) {
            lost++;
            blocked = true;
        }
    }

    private static final class MutableClock extends Clock {
        private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
