package com.llmserve.gpu;

import com.llmserve.kernels.Kernel;

/** A kernel entry point resolved in a loaded module of one device; valid while the device is open. */
public final class KernelFunction {

    private final Kernel kernel;
    private final Device device;
    private final long handle;

    KernelFunction(Kernel kernel, Device device, long handle) {
        this.kernel = kernel;
        this.device = device;
        this.handle = handle;
    }

    public Kernel kernel() {
        return kernel;
    }

    public Device device() {
        return device;
    }

    long handle() {
        return handle;
    }

    @Override
    public String toString() {
        return kernel.symbol() + " on " + device;
    }
}
