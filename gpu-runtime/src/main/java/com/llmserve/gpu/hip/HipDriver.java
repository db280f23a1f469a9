package com.llmserve.gpu.hip;

import com.llmserve.gpu.Vendor;
import com.llmserve.gpu.spi.DeviceDriver;
import com.llmserve.gpu.spi.Driver;

/** The loaded HIP runtime; owns the rocm-smi session its devices read telemetry from. */
final class HipDriver implements Driver {

    private final int deviceCount;
    private final int runtimeVersion;
    private final int driverVersion;
    private final RocmSmi smi;

    HipDriver(int deviceCount, int runtimeVersion, int driverVersion) {
        this.deviceCount = deviceCount;
        this.runtimeVersion = runtimeVersion;
        this.driverVersion = driverVersion;
        this.smi = RocmSmi.open();
    }

    /** HIP encodes versions (runtime and driver alike) as major * 10^7 + minor * 10^5 + patch. */
    static String describe(int version) {
        return version / 10_000_000 + "." + version / 100_000 % 100 + "." + version % 100_000;
    }

    @Override
    public Vendor vendor() {
        return Vendor.AMD;
    }

    @Override
    public String version() {
        // as the CUDA backend reports its driver's version beside the API's
        return "HIP runtime " + describe(runtimeVersion) + ", HIP driver " + describe(driverVersion)
                + (smi.available() ? ", rocm-smi" : ", rocm-smi unavailable");
    }

    @Override
    public int deviceCount() {
        return deviceCount;
    }

    @Override
    public DeviceDriver openDevice(int ordinal) {
        return new DeviceDriver(new HipCalls(ordinal, smi));
    }

    @Override
    public void close() {
        smi.close();
    }
}
