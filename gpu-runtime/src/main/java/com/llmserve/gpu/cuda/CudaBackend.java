package com.llmserve.gpu.cuda;

import static com.llmserve.gpu.cuda.cuda_h.*;

import com.llmserve.gpu.GpuException;
import com.llmserve.gpu.Vendor;
import com.llmserve.gpu.spi.Backend;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** NVIDIA GPUs through the CUDA driver API ({@code libcuda.so.1}), cuBLAS and NVML. */
public final class CudaBackend implements Backend {

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
        if (!cuda_h.LIBRARY.isLoaded()) {
            return new Probe.Unavailable(
                    "no NVIDIA driver: " + cuda_h.LIBRARY.loadFailure().orElse("libcuda.so.1 not found"));
        }
        try (Arena arena = Arena.ofConfined()) {
            int rc = cuInit(0);
            if (rc != CUDA_SUCCESS) {
                return new Probe.Unavailable(
                        "no NVIDIA device: " + CudaStatus.CU.error(rc, "cuInit").getMessage());
            }
            MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            CudaStatus.CU.check(cuDeviceGetCount(count), "cuDeviceGetCount");
            int devices = count.get(ValueLayout.JAVA_INT, 0);
            if (devices == 0) return new Probe.Unavailable("no NVIDIA device: cuDeviceGetCount answered 0");
            MemorySegment version = arena.allocate(ValueLayout.JAVA_INT);
            CudaStatus.CU.check(cuDriverGetVersion(version), "cuDriverGetVersion");
            return new Probe.Available(new CudaDriver(devices, version.get(ValueLayout.JAVA_INT, 0)));
        } catch (GpuException e) {
            return new Probe.Unavailable("CUDA driver failed: " + e.getMessage());
        }
    }
}
