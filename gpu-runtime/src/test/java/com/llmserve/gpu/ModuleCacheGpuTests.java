package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.kernels.Kernel;
import com.llmserve.kernels.KernelModuleId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ArgumentsSource;

@RequiresGpu
class ModuleCacheGpuTests {

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void eachModuleIsLoadedOnceWhateverTheNumberOfConcurrentLookups(Device device, DevicePool devices)
            throws Exception {
        int threads = 16;
        int lookups = 2000;
        Set<KernelFunction> seen = ConcurrentHashMap.newKeySet();
        CountDownLatch start = new CountDownLatch(1);
        long t0 = System.nanoTime();
        // Virtual threads on purpose: they hop carriers, which is what per-call context binding is for.
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < lookups; i++) {
                        for (Kernel k : Kernel.values()) seen.add(device.function(k));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) f.get();
        }
        double millis = (System.nanoTime() - t0) / 1e6;
        for (KernelModuleId id : KernelModuleId.values()) {
            KernelModule module = device.modules().module(id);
            GpuReport.line(
                    "module %s on %s: loaded %d time(s) from %s after %d lookups from %d threads",
                    id.moduleName(),
                    device.info().name(),
                    device.modules().loadCount(id),
                    module.target().fileName(id.moduleName()),
                    threads * lookups,
                    threads);
            assertThat(device.modules().loadCount(id)).isEqualTo(1);
            assertThat(module.target())
                    .isEqualTo(device.info()
                            .arch()
                            .select(devices.codeObjects().targets(id))
                            .orElseThrow());
        }
        assertThat(seen).hasSize(Kernel.values().length); // one function object per kernel, looked up once
        GpuReport.line(
                "%d lookups of %d kernels (first ones loading) in %.1f ms",
                threads * lookups, Kernel.values().length, millis);
    }

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void ptxLoadsThroughTheDriverJitWhenNoCubinFits(Device device, DevicePool devices) throws Exception {
        if (device.info().vendor() != Vendor.NVIDIA) return; // PTX is NVIDIA's fallback only
        CodeObjectCatalog.Entry ptx = devices.codeObjects().entries(KernelModuleId.ELEMENTWISE).stream()
                .filter(e -> e.target().kind() == CodeObjectTarget.Kind.PTX)
                .findFirst()
                .orElseThrow();
        long t0 = System.nanoTime();
        KernelModule module = KernelModule.load(
                device, KernelModuleId.ELEMENTWISE, ptx, devices.codeObjects().image(ptx));
        double jitMillis = (System.nanoTime() - t0) / 1e6;
        try (StreamLease lease = device.streams().lease()) {
            Stream s = lease.stream();
            int n = 1000;
            float[] a = HostData.randomFloats(n, 7), b = HostData.randomFloats(n, 8);
            try (DeviceBuffer da = HostData.upload(s, a);
                    DeviceBuffer db = HostData.upload(s, b);
                    DeviceBuffer out = device.allocate(n * 4L)) {
                s.launch(
                        module.function(Kernel.VECTOR_ADD_F32),
                        LaunchConfig.covering(n, 128),
                        KernelArgs.of().pointer(da).pointer(db).pointer(out).i32(n));
                float[] got = HostData.download(s, out, n);
                for (int i = 0; i < n; i++) assertThat(got[i]).isEqualTo(a[i] + b[i]);
            }
        } finally {
            module.unload(device);
        }
        GpuReport.line(
                "PTX %s JIT-loaded on %s in %.1f ms; vector_add exact",
                ptx.file(), device.info().name(), jitMillis);
    }
}
