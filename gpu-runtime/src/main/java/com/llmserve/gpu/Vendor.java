package com.llmserve.gpu;

/** Who made the device, and so which runtime, BLAS and code-object format serve it. */
public enum Vendor {
    /** AMD GPUs through HIP, rocBLAS, MIOpen and rocm-smi; code objects are HSACO per gfx arch. */
    AMD,
    /** NVIDIA GPUs through the CUDA driver API, cuBLAS and NVML; code objects are cubin or PTX. */
    NVIDIA
}
