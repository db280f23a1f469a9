package com.llmserve.gpu.cuda;

import com.llmserve.gpu.DeviceOptions;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.GpuCallException;
import com.llmserve.gpu.Vendor;
import com.llmserve.gpu.spi.Backend;
import com.llmserve.gpu.spi.DeviceDriver;
import com.llmserve.gpu.spi.Driver;
import com.llmserve.gpu.spi.RuntimeCalls;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The real CUDA devices behind runtime calls that fail at random on command: kernel launches (also
 * while a stream captures a graph), graph launches and copies are refused the way a flaky device
 * refuses them, before they reach the driver. Everything else, and every call that is not refused,
 * is the driver's own, so a test sees real device memory, streams and graphs around real faults in
 * the middle of a forward pass. A test fixture: nothing ships it.
 */
public final class FlakyCuda implements AutoCloseable {

    /** The calls a fault refuses, and the driver function each stands for in the error. */
    private static final Map<String, String> REFUSABLE = Map.of(
            "launch", "cuLaunchKernel",
            "launchGraph", "cuGraphLaunch",
            "copyHostToDevice", "cuMemcpyHtoDAsync_v2",
            "copyDeviceToHost", "cuMemcpyDtoHAsync_v2");

    private final DevicePool pool;
    private final Object lock = new Object();
    private SplittableRandom random = new SplittableRandom(0);
    private volatile double probability;
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong refusable = new AtomicLong();

    private FlakyCuda(DeviceOptions options) {
        this.pool = DevicePool.open(List.of(new FlakyBackend()), options);
    }

    /** A pool over every CUDA device, healthy until told otherwise; empty where CUDA has no device. */
    public static FlakyCuda open(DeviceOptions options) {
        return new FlakyCuda(options);
    }

    public DevicePool pool() {
        return pool;
    }

    /** From now on each refusable call fails with probability {@code p}, drawn from {@code seed}. */
    public void failAtRandom(double p, long seed) {
        synchronized (lock) {
            random = new SplittableRandom(seed);
        }
        probability = p;
    }

    /** Every call reaches the driver again. */
    public void heal() {
        probability = 0;
    }

    /** Calls refused so far. */
    public long refused() {
        return refused.get();
    }

    /** Refusable calls made so far, refused or not. */
    public long refusable() {
        return refusable.get();
    }

    @Override
    public void close() {
        pool.close();
    }

    private boolean refuseNow() {
        refusable.incrementAndGet();
        double p = probability;
        if (p <= 0) {
            return false;
        }
        synchronized (lock) {
            return random.nextDouble() < p;
        }
    }

    private RuntimeCalls flaky(RuntimeCalls real) {
        return (RuntimeCalls) Proxy.newProxyInstance(
                RuntimeCalls.class.getClassLoader(), new Class<?>[] {RuntimeCalls.class}, (proxy, method, args) -> {
                    String call = REFUSABLE.get(method.getName());
                    if (call != null && refuseNow()) {
                        refused.incrementAndGet();
                        // CUDA_ERROR_LAUNCH_FAILED is not sticky: the context survives, as after a refused launch
                        throw new GpuCallException(
                                "cuda", call, 719, "CUDA_ERROR_LAUNCH_FAILED", "injected fault", false);
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private final class FlakyBackend implements Backend {
        @Override
        public String name() {
            return "cuda";
        }

        @Override
        public Vendor vendor() {
            return Vendor.NVIDIA;
        }

        @Override
        public Probe probe() {
            return switch (new CudaBackend().probe()) {
                case Probe.Available a -> new Probe.Available(new FlakyDriver(a.driver()));
                case Probe.Unavailable u -> u;
            };
        }
    }

    /** The real driver, whose devices answer through the flaky calls. */
    private final class FlakyDriver implements Driver {
        private final Driver real;
        private final Nvml nvml = Nvml.open();

        FlakyDriver(Driver real) {
            this.real = real;
        }

        @Override
        public Vendor vendor() {
            return real.vendor();
        }

        @Override
        public String version() {
            return real.version() + " (flaky calls)";
        }

        @Override
        public int deviceCount() {
            return real.deviceCount();
        }

        @Override
        public DeviceDriver openDevice(int ordinal) {
            return new DeviceDriver(flaky(new CudaCalls(ordinal, nvml)));
        }

        @Override
        public void close() {
            nvml.close();
            real.close();
        }
    }
}
