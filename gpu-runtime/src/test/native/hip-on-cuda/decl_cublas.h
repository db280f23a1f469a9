/* cuBLAS: declared by hand for hip-on-cuda (test code; see hoc.h), asserted by check_cuda_decls.c. */
#ifndef HOC_DECL_CUBLAS_H
#define HOC_DECL_CUBLAS_H

#include "hoc.h"

/* ---- cuBLAS: mirrors cublas_api.h and library_types.h (CUDA 13) ---------------------------- */
typedef int hoc_cublasStatus_t;
typedef void *hoc_cublasHandle_t;
enum {
    HOC_CUBLAS_STATUS_SUCCESS = 0,
    HOC_CUBLAS_STATUS_NOT_INITIALIZED = 1,
    HOC_CUBLAS_STATUS_ALLOC_FAILED = 3,
    HOC_CUBLAS_STATUS_INVALID_VALUE = 7,
    HOC_CUBLAS_STATUS_ARCH_MISMATCH = 8,
    HOC_CUBLAS_STATUS_MAPPING_ERROR = 11,
    HOC_CUBLAS_STATUS_EXECUTION_FAILED = 13,
    HOC_CUBLAS_STATUS_INTERNAL_ERROR = 14,
    HOC_CUBLAS_STATUS_NOT_SUPPORTED = 15,
    HOC_CUBLAS_STATUS_LICENSE_ERROR = 16,
};
enum { HOC_CUBLAS_OP_N = 0, HOC_CUBLAS_OP_T = 1, HOC_CUBLAS_OP_C = 2 }; /* cublasOperation_t */
enum {                                                                   /* cudaDataType_t (library_types.h) */
       HOC_CUDA_R_32F = 0,
       HOC_CUDA_R_64F = 1,
       HOC_CUDA_R_16F = 2,
       HOC_CUDA_R_8I = 3,
       HOC_CUDA_C_32F = 4,
       HOC_CUDA_C_64F = 5,
       HOC_CUDA_C_16F = 6,
       HOC_CUDA_C_8I = 7,
       HOC_CUDA_R_8U = 8,
       HOC_CUDA_C_8U = 9,
       HOC_CUDA_R_32I = 10,
       HOC_CUDA_C_32I = 11,
       HOC_CUDA_R_32U = 12,
       HOC_CUDA_C_32U = 13,
       HOC_CUDA_R_16BF = 14,
       HOC_CUDA_C_16BF = 15,
};
enum { /* cublasComputeType_t */
       HOC_CUBLAS_COMPUTE_16F = 64,
       HOC_CUBLAS_COMPUTE_32F = 68,
       HOC_CUBLAS_COMPUTE_64F = 70,
       HOC_CUBLAS_COMPUTE_32I = 72,
};
enum { HOC_CUBLAS_GEMM_DEFAULT = -1 }; /* cublasGemmAlgo_t */

#define HOC_CUBLAS_FUNCTIONS(F)                                                                                  \
    F(cublasCreate_v2, (hoc_cublasHandle_t * handle))                                                            \
    F(cublasDestroy_v2, (hoc_cublasHandle_t handle))                                                             \
    F(cublasSetStream_v2, (hoc_cublasHandle_t handle, hoc_CUstream streamId))                                    \
    F(cublasSetWorkspace_v2, (hoc_cublasHandle_t handle, void *workspace, size_t workspaceSizeInBytes))          \
    F(cublasGemmEx, (hoc_cublasHandle_t handle, int transa, int transb, int m, int n, int k, const void *alpha,  \
                     const void *A, int Atype, int lda, const void *B, int Btype, int ldb, const void *beta,     \
                     void *C, int Ctype, int ldc, int computeType, int algo))

#define HOC_DECLARE_CUBLAS(name, params) typedef hoc_cublasStatus_t(*hoc_pfn_##name) params;
HOC_CUBLAS_FUNCTIONS(HOC_DECLARE_CUBLAS)

#endif
