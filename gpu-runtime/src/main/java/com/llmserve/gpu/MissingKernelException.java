package com.llmserve.gpu;

import com.llmserve.kernels.KernelModuleId;

/** No code object of a module runs on this device, or a loaded one lacks an expected symbol. */
public final class MissingKernelException extends GpuException {

    private final KernelModuleId module;
    private final DeviceArch arch;

    public MissingKernelException(KernelModuleId module, DeviceArch arch, String detail) {
        super("kernel module '" + module.moduleName() + "' for " + arch + ": " + detail);
        this.module = module;
        this.arch = arch;
    }

    public KernelModuleId module() {
        return module;
    }

    public DeviceArch arch() {
        return arch;
    }
}
