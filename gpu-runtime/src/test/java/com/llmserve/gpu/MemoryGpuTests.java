package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ArgumentsSource;

@RequiresGpu
class MemoryGpuTests {

    private static final int BYTES = 64 << 20;

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void bytesSurviveHostToDeviceToDeviceToHost(Device device) throws Exception {
        try (StreamLease lease = device.streams().lease();
                PinnedBuffer src = device.allocatePinned(BYTES);
                PinnedBuffer dst = device.allocatePinned(BYTES);
                DeviceBuffer a = device.allocate(BYTES);
                DeviceBuffer b = device.allocate(BYTES);
                Event t0 = device.createEvent();
                Event t1 = device.createEvent();
                Event t2 = device.createEvent();
                Event t3 = device.createEvent()) {
            Stream s = lease.stream();
            SplittableRandom random = new SplittableRandom(42);
            MemorySegment in = src.segment();
            for (long i = 0; i < BYTES; i += 8) in.set(ValueLayout.JAVA_LONG, i, random.nextLong());
            dst.segment().fill((byte) 0);

            s.record(t0);
            s.copyToDevice(in, a);
            s.record(t1);
            s.copy(a, b, BYTES);
            s.record(t2);
            s.copyToHost(b, dst.segment());
            s.record(t3);
            s.synchronize();

            assertThat(dst.segment().mismatch(in)).as("first differing byte").isEqualTo(-1L);
            GpuReport.line(
                    "%s copies of %d MiB: host->device %.1f GB/s, device->device %.1f GB/s, device->host %.1f GB/s",
                    device.info().name(),
                    BYTES >> 20,
                    gbps(t1.elapsedMillisSince(t0)),
                    2 * gbps(t2.elapsedMillisSince(t1)),
                    gbps(t3.elapsedMillisSince(t2)));
        }
    }

    /**
     * One stream's work ordered after another's by an event, not by the host: the second stream
     * copies what the first wrote only once the event it waits for has passed.
     */
    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void aStreamWaitsForAnEventOfAnother(Device device) throws Exception {
        int bytes = 16 << 20;
        try (StreamLease first = device.streams().lease();
                StreamLease second = device.streams().lease();
                PinnedBuffer src = device.allocatePinned(bytes);
                PinnedBuffer dst = device.allocatePinned(bytes);
                DeviceBuffer a = device.allocate(bytes);
                DeviceBuffer b = device.allocate(bytes);
                Event written = device.createEvent()) {
            assertThat(second.stream()).isNotSameAs(first.stream());
            SplittableRandom random = new SplittableRandom(7);
            for (long i = 0; i < bytes; i += 8) src.segment().set(ValueLayout.JAVA_LONG, i, random.nextLong());
            first.stream().copyToDevice(src.segment(), a);
            first.stream().record(written);
            second.stream().waitFor(written);
            second.stream().copy(a, b, bytes);
            second.stream().copyToHost(b, dst.segment());
            second.stream().synchronize();
            assertThat(written.isDone())
                    .as("the event the finished stream waited for")
                    .isTrue();
            assertThat(dst.segment().mismatch(src.segment()))
                    .as("first differing byte")
                    .isEqualTo(-1L);
        }
    }

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void fillWritesEveryByte(Device device) throws Exception {
        try (StreamLease lease = device.streams().lease();
                DeviceBuffer buf = lease.stream().allocate(4099);
                PinnedBuffer host = device.allocatePinned(4099)) {
            lease.stream().fill(buf, (byte) 0xA5);
            lease.stream().copyToHost(buf, host.segment());
            lease.stream().synchronize();
            for (long i = 0; i < 4099; i++)
                assertThat(host.segment().get(ValueLayout.JAVA_BYTE, i)).isEqualTo((byte) 0xA5);
        }
    }

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void theCachingAllocatorKeepsADecodeLoopAwayFromTheDriver(Device device) throws Exception {
        AllocatorStats before = device.allocatorStats();
        try (StreamLease lease = device.streams().lease()) {
            Stream s = lease.stream();
            for (int step = 0; step < 1000; step++) {
                try (DeviceBuffer logits = s.allocate(32000 * 4);
                        DeviceBuffer hidden = s.allocate(4096 * 4)) {
                    s.fill(logits, (byte) 0);
                    s.fill(hidden, (byte) 0);
                }
            }
            s.synchronize();
        }
        AllocatorStats after = device.allocatorStats();
        GpuReport.line(
                "allocator after 1000 steps x 2 buffers: %d driver mallocs, %d cache hits, %d B cached",
                after.driverAllocations() - before.driverAllocations(),
                after.cacheHits() - before.cacheHits(),
                after.bytesCached());
        assertThat(after.driverAllocations() - before.driverAllocations()).isLessThanOrEqualTo(2);
        assertThat(after.cacheHits() - before.cacheHits()).isGreaterThanOrEqualTo(1998);
        device.trimMemory();
        assertThat(device.allocatorStats().bytesCached()).isZero();
    }

    private static double gbps(float millis) {
        return BYTES / (millis * 1e-3) / 1e9;
    }
}
