package com.llmserve.gpu;

/**
 * What a device is, read once when the pool opens it.
 *
 * @param ordinal the backend's device index (HIP device id or CUDA ordinal)
 * @param name the marketing name the driver reports
 * @param arch the instruction-set architecture, which picks the code object
 * @param totalMemory device memory in bytes
 * @param waveSize threads per wave (AMD) or warp (NVIDIA): 64 on CDNA, 32 on RDNA and NVIDIA
 * @param multiprocessors compute units (AMD) or streaming multiprocessors (NVIDIA)
 * @param maxThreadsPerBlock the largest block a launch may use
 * @param sharedMemoryPerBlock bytes of LDS / shared memory a block may use
 * @param pciBusId PCI address {@code dddd:bb:dd.f}, which ties the device to rocm-smi / NVML
 */
public record DeviceInfo(
        int ordinal,
        String name,
        DeviceArch arch,
        long totalMemory,
        int waveSize,
        int multiprocessors,
        int maxThreadsPerBlock,
        long sharedMemoryPerBlock,
        String pciBusId) {

    public Vendor vendor() {
        return arch.vendor();
    }
}
