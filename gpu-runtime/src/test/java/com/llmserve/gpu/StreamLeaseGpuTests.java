package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Stream leases from many threads on a pool of four streams per device. */
@RequiresGpu
class StreamLeaseGpuTests {

    private static final int STREAMS = 4;
    private static DevicePool pool;

    @BeforeAll
    static void open() {
        // a pool of its own: a few streams per device, so leases must wait for each other
        pool = RequiresGpu.Runtime.openPool(new DeviceOptions(STREAMS, 32L << 20));
    }

    @AfterAll
    static void close() {
        if (pool != null) pool.close();
    }

    @Test
    void concurrentRequestsEachGetTheirOwnStreamAndCorrectResults() throws Exception {
        Device device = pool.device(0);
        int requests = 24;
        int n = 1 << 20;
        AtomicInteger concurrent = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        Set<Stream> used = ConcurrentHashMap.newKeySet();
        CountDownLatch go = new CountDownLatch(1);
        long t0 = System.nanoTime();
        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int r = 0; r < requests; r++) {
                int request = r;
                futures.add(threads.submit(() -> {
                    go.await();
                    float[] a = HostData.randomFloats(n, 100 + request), b = HostData.randomFloats(n, 200 + request);
                    try (StreamLease lease = device.streams().lease()) {
                        peak.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
                        Stream s = lease.stream();
                        used.add(s);
                        try (DeviceBuffer da = HostData.upload(s, a);
                                DeviceBuffer db = HostData.upload(s, b);
                                DeviceBuffer out = s.allocate(n * 4L)) {
                            for (int i = 0; i < 20; i++) TestKernels.vectorAdd(s, da, db, out, n);
                            float[] got = HostData.download(s, out, n);
                            for (int i = 0; i < n; i++) {
                                if (got[i] != a[i] + b[i])
                                    throw new AssertionError("request " + request + " element " + i);
                            }
                        } finally {
                            concurrent.decrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : futures) f.get();
        }
        GpuReport.line(
                "%d requests from 8 threads on %s: peak %d concurrent leases, %d distinct streams (cap %d), %.0f ms",
                requests, device.info().name(), peak.get(), used.size(), STREAMS, (System.nanoTime() - t0) / 1e6);
        assertThat(peak.get()).isBetween(2, STREAMS);
        assertThat(used).hasSizeBetween(2, STREAMS);
        assertThat(device.streams().created()).isLessThanOrEqualTo(STREAMS);
        assertThat(device.streams().leased()).isZero();
    }

    @Test
    void aLeaseWaitsWhileEveryStreamIsTakenAndProceedsWhenOneReturns() throws Exception {
        Device device = pool.device(0);
        List<StreamLease> all = new ArrayList<>();
        for (int i = 0; i < STREAMS; i++) all.add(device.streams().lease());
        assertThat(device.streams().tryLease(Duration.ofMillis(50))).isEmpty();
        all.removeFirst().close();
        try (StreamLease again =
                device.streams().tryLease(Duration.ofSeconds(5)).orElseThrow()) {
            assertThat(again.stream()).isNotNull();
        }
        all.forEach(StreamLease::close);
        assertThat(device.streams().leased()).isZero();
    }
}
