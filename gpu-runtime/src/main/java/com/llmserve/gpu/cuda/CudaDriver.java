package com.llmserve.gpu.cuda;

import com.llmserve.gpu.Vendor;
import com.llmserve.gpu.spi.DeviceDriver;
import com.llmserve.gpu.spi.Driver;

/** The initialised CUDA driver; owns the NVML session its devices read telemetry from. */
final class CudaDriver implements Driver {

    private final int deviceCount;
    private final int driverVersion;
    private final Nvml nvml;

    CudaDriver(int deviceCount, int driverVersion) {
        this.deviceCount = deviceCount;
        this.driverVersion = driverVersion;
        this.nvml = Nvml.open();
    }

    @Override
    public Vendor vendor() {
        return Vendor.NVIDIA;
    }

    @Override
    public String version() {
        // cuDriverGetVersion encodes 13.0 as 13000.
        return "CUDA driver API " + driverVersion / 1000 + "." + driverVersion % 1000 / 10
                + (nvml.available() ? ", NVML driver " + nvml.driverVersion() : ", NVML unavailable");
    }

    @Override
    public int deviceCount() {
        return deviceCount;
    }

    @Override
    public DeviceDriver openDevice(int ordinal) {
        return new DeviceDriver(new CudaCalls(ordinal, nvml));
    }

    @Override
    public void close() {
        nvml.close();
    }
}
