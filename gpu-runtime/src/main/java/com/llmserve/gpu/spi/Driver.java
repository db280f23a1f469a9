package com.llmserve.gpu.spi;

import com.llmserve.gpu.Vendor;

/** A loaded vendor runtime with at least one device. Closing it releases process-wide state (NVML, rocm-smi). */
public interface Driver extends AutoCloseable {

    Vendor vendor();

    /** Runtime and driver versions as the vendor reports them, for logs and health. */
    String version();

    int deviceCount();

    /** Opens (retains a context for) one device; the pool owns and closes the result. */
    DeviceDriver openDevice(int ordinal);

    @Override
    void close();
}
