package com.llmserve.gpu.bindingcheck;

import com.llmserve.gpu.cuda.cublas_api_h;
import com.llmserve.gpu.cuda.cuda_h;
import com.llmserve.gpu.cuda.nccl_h;
import com.llmserve.gpu.cuda.nvml_h;
import com.llmserve.gpu.hip.hip_runtime_api_h;
import com.llmserve.gpu.hip.miopen_h;
import com.llmserve.gpu.hip.rccl_h;
import com.llmserve.gpu.hip.rocblas_h;
import com.llmserve.gpu.hip.rocm_smi_h;
import java.util.List;

/** Which header each holder mirrors, with what it needs to compile as C++ on its own. */
enum HeaderSet {
    HIP_RUNTIME(hip_runtime_api_h.class, Toolkit.ROCM, "hip/hip_runtime_api.h"),
    ROCBLAS(rocblas_h.class, Toolkit.ROCM, "rocblas/rocblas.h"),
    MIOPEN(miopen_h.class, Toolkit.ROCM, "miopen/miopen.h"),
    ROCM_SMI(rocm_smi_h.class, Toolkit.ROCM, "rocm_smi/rocm_smi.h"),
    CUDA(cuda_h.class, Toolkit.CUDA_DRIVER, "cuda.h"),
    // cublas_v2.h is what applications include: it is where cublasCreate becomes cublasCreate_v2.
    CUBLAS(cublas_api_h.class, Toolkit.CUDA_LIBRARIES, "cublas_v2.h"),
    NVML(nvml_h.class, Toolkit.CUDA_LIBRARIES, "nvml.h"),
    NCCL(nccl_h.class, Toolkit.NCCL, "nccl.h"),
    RCCL(rccl_h.class, Toolkit.RCCL, "rccl/rccl.h");

    /** Where the headers come from. */
    enum Toolkit {
        /** The vendored ROCm 6.4 headers: always available. */
        ROCM,
        /** cuda.h, present wherever nvcc is (this machine and CI). */
        CUDA_DRIVER,
        /** cuBLAS and NVML headers: only on the GPU test machines. */
        CUDA_LIBRARIES,
        /** The vendored NCCL 2.29 {@code nccl.h} over the CUDA runtime headers that come with nvcc. */
        NCCL,
        /** The vendored RCCL 5.4 {@code rccl/rccl.h} over the vendored ROCm 6.4 HIP headers. */
        RCCL;

        /** ROCm headers: compiled with HIP's defines, and never against a CUDA toolkit. */
        boolean isRocm() {
            return this == ROCM || this == RCCL;
        }
    }

    final Class<?> holder;
    final Toolkit toolkit;
    final String include;

    HeaderSet(Class<?> holder, Toolkit toolkit, String include) {
        this.holder = holder;
        this.toolkit = toolkit;
        this.include = include;
    }

    List<String> prelude() {
        return toolkit.isRocm()
                ? List.of(
                        "#define __HIP_PLATFORM_AMD__ 1",
                        // HIP's C++ template overloads (hipMalloc<T>) would make &hipMalloc ambiguous.
                        "#define __HIP_DISABLE_CPP_FUNCTIONS__ 1",
                        "#include <" + include + ">")
                : List.of("#include <" + include + ">");
    }

    String fileName() {
        return holder.getSimpleName() + ".check.cpp";
    }

    String source() {
        return BindingCheckGenerator.generate(holder, prelude());
    }
}
