package com.llmserve.gpu.hip;

import static com.llmserve.gpu.hip.hip_runtime_api_h.*;

import com.llmserve.gpu.GpuException;
import com.llmserve.gpu.Vendor;
import com.llmserve.gpu.spi.Backend;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** AMD GPUs through the HIP runtime ({@code libamdhip64}), rocBLAS, MIOpen and rocm-smi. */
public final class HipBackend implements Backend {

    @Override
    public String name() {
        return "hip";
    }

    @Override
    public Vendor vendor() {
        return Vendor.AMD;
    }

    @Override
    public Probe probe() {
        if (!LIBRARY.isLoaded()) {
            return new Probe.Unavailable(
                    "no HIP runtime: " + LIBRARY.loadFailure().orElse("libamdhip64 not found"));
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment version = arena.allocate(ValueLayout.JAVA_INT);
            HipStatus.HIP.check(hipRuntimeGetVersion(version), "hipRuntimeGetVersion");
            int runtimeVersion = version.get(ValueLayout.JAVA_INT, 0);
            MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            int rc = hipGetDeviceCount(count);
            if (rc != hipSuccess) {
                // hipErrorNoDevice is the normal answer on a machine without AMD GPUs (CI).
                return new Probe.Unavailable("no AMD device (HIP runtime " + HipDriver.describe(runtimeVersion) + "): "
                        + HipStatus.HIP.error(rc, "hipGetDeviceCount").getMessage());
            }
            int devices = count.get(ValueLayout.JAVA_INT, 0);
            if (devices == 0) return new Probe.Unavailable("no AMD device: hipGetDeviceCount answered 0");
            MemorySegment driverVersion = arena.allocate(ValueLayout.JAVA_INT);
            HipStatus.HIP.check(hipDriverGetVersion(driverVersion), "hipDriverGetVersion");
            return new Probe.Available(
                    new HipDriver(devices, runtimeVersion, driverVersion.get(ValueLayout.JAVA_INT, 0)));
        } catch (GpuException e) {
            return new Probe.Unavailable("HIP runtime failed: " + e.getMessage());
        }
    }
}
