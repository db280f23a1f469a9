/*
 * rocBLAS -> cuBLAS (test code; see hoc.h). A rocblas_handle is a cuBLAS handle plus its stream and
 * a workspace of its own (rocBLAS manages its workspace; cuBLAS gets one set explicitly, which keeps
 * it capture-safe, as the CUDA backend does with cublasSetWorkspace).
 */
#define _GNU_SOURCE
#include "hoc.h"

#include <dlfcn.h>
#include <rocblas/rocblas.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "decl_cublas.h"

static struct {
#define HOC_MEMBER(name, params) hoc_pfn_##name name;
    HOC_CUBLAS_FUNCTIONS(HOC_MEMBER)
#undef HOC_MEMBER
} cublas;
static int cublas_loaded;
static pthread_once_t cublas_once = PTHREAD_ONCE_INIT;

static void load_cublas(void) {
    const char *env = getenv("HIP_ON_CUDA_LIBCUBLAS");
    const char *names[] = {env && *env ? env : "libcublas.so.13", "libcublas.so.12",
                           "/usr/local/cuda/lib64/libcublas.so.13", "libcublas.so", NULL};
    void *h = hoc_dlopen_first(names);
    if (!h) return;
#define HOC_RESOLVE(name, params)                              \
    if (!(cublas.name = (hoc_pfn_##name)dlsym(h, #name))) return;
    HOC_CUBLAS_FUNCTIONS(HOC_RESOLVE)
#undef HOC_RESOLVE
    cublas_loaded = 1;
}

static rocblas_status rocblas_status_of(hoc_cublasStatus_t s) {
    switch (s) {
        case HOC_CUBLAS_STATUS_SUCCESS: return rocblas_status_success;
        case HOC_CUBLAS_STATUS_NOT_INITIALIZED: return rocblas_status_invalid_handle;
        case HOC_CUBLAS_STATUS_ALLOC_FAILED: return rocblas_status_memory_error;
        case HOC_CUBLAS_STATUS_INVALID_VALUE: return rocblas_status_invalid_value;
        case HOC_CUBLAS_STATUS_ARCH_MISMATCH: return rocblas_status_arch_mismatch;
        case HOC_CUBLAS_STATUS_NOT_SUPPORTED: return rocblas_status_not_implemented;
        default: return rocblas_status_internal_error;
    }
}

#define HOC_WORKSPACE_BYTES (32u << 20)

struct _rocblas_handle {
    hoc_cublasHandle_t cublas;
    hoc_CUstream stream;
    hoc_CUdeviceptr workspace;
};

/* Binds the HIP device's context and loads cuBLAS; rocBLAS calls fail as rocBLAS does without a device. */
static rocblas_status blas_enter(void) {
    if (hoc_bind() != HOC_CUDA_SUCCESS) return rocblas_status_internal_error;
    pthread_once(&cublas_once, load_cublas);
    return cublas_loaded ? rocblas_status_success : rocblas_status_internal_error;
}

rocblas_status rocblas_create_handle(rocblas_handle *handle) {
    HOC_COUNT(rocblas_create_handle);
    if (!handle) return rocblas_status_invalid_handle;
    rocblas_status s = blas_enter();
    if (s != rocblas_status_success) return s;
    const struct hoc_cuda *cu = hoc_cuda(NULL);
    struct _rocblas_handle *h = calloc(1, sizeof *h);
    if (!h) return rocblas_status_memory_error;
    s = rocblas_status_of(cublas.cublasCreate_v2(&h->cublas));
    if (s == rocblas_status_success && cu->cuMemAlloc_v2(&h->workspace, HOC_WORKSPACE_BYTES) != HOC_CUDA_SUCCESS)
        s = rocblas_status_memory_error;
    if (s == rocblas_status_success)
        s = rocblas_status_of(cublas.cublasSetWorkspace_v2(h->cublas, (void *)(uintptr_t)h->workspace,
                                                           HOC_WORKSPACE_BYTES));
    if (s != rocblas_status_success) {
        if (h->workspace) cu->cuMemFree_v2(h->workspace);
        if (h->cublas) cublas.cublasDestroy_v2(h->cublas);
        free(h);
        return s;
    }
    *handle = h;
    return rocblas_status_success;
}

rocblas_status rocblas_destroy_handle(rocblas_handle handle) {
    HOC_COUNT(rocblas_destroy_handle);
    if (!handle) return rocblas_status_invalid_handle;
    rocblas_status s = blas_enter();
    if (s != rocblas_status_success) return s;
    s = rocblas_status_of(cublas.cublasDestroy_v2(handle->cublas));
    if (handle->workspace && hoc_cuda(NULL)->cuMemFree_v2(handle->workspace) != HOC_CUDA_SUCCESS && s == rocblas_status_success)
        s = rocblas_status_memory_error;
    free(handle);
    return s;
}

rocblas_status rocblas_set_stream(rocblas_handle handle, hipStream_t stream) {
    HOC_COUNT(rocblas_set_stream);
    if (!handle) return rocblas_status_invalid_handle;
    rocblas_status s = blas_enter();
    if (s != rocblas_status_success) return s;
    s = rocblas_status_of(cublas.cublasSetStream_v2(handle->cublas, stream));
    /* cublasSetStream resets the workspace to cuBLAS's default pool: set ours again */
    if (s == rocblas_status_success)
        s = rocblas_status_of(cublas.cublasSetWorkspace_v2(handle->cublas, (void *)(uintptr_t)handle->workspace,
                                                           HOC_WORKSPACE_BYTES));
    if (s == rocblas_status_success) handle->stream = stream;
    return s;
}

static int cublas_op(rocblas_operation op) {
    switch (op) {
        case rocblas_operation_none: return HOC_CUBLAS_OP_N;
        case rocblas_operation_transpose: return HOC_CUBLAS_OP_T;
        case rocblas_operation_conjugate_transpose: return HOC_CUBLAS_OP_C;
        default: return -1;
    }
}

static int cuda_type(rocblas_datatype t, size_t *bytes) {
    switch (t) {
        case rocblas_datatype_f16_r: *bytes = 2; return HOC_CUDA_R_16F;
        case rocblas_datatype_f32_r: *bytes = 4; return HOC_CUDA_R_32F;
        case rocblas_datatype_f64_r: *bytes = 8; return HOC_CUDA_R_64F;
        case rocblas_datatype_f16_c: *bytes = 4; return HOC_CUDA_C_16F;
        case rocblas_datatype_f32_c: *bytes = 8; return HOC_CUDA_C_32F;
        case rocblas_datatype_f64_c: *bytes = 16; return HOC_CUDA_C_64F;
        case rocblas_datatype_i8_r: *bytes = 1; return HOC_CUDA_R_8I;
        case rocblas_datatype_u8_r: *bytes = 1; return HOC_CUDA_R_8U;
        case rocblas_datatype_i32_r: *bytes = 4; return HOC_CUDA_R_32I;
        case rocblas_datatype_u32_r: *bytes = 4; return HOC_CUDA_R_32U;
        case rocblas_datatype_i8_c: *bytes = 2; return HOC_CUDA_C_8I;
        case rocblas_datatype_u8_c: *bytes = 2; return HOC_CUDA_C_8U;
        case rocblas_datatype_i32_c: *bytes = 8; return HOC_CUDA_C_32I;
        case rocblas_datatype_u32_c: *bytes = 8; return HOC_CUDA_C_32U;
        case rocblas_datatype_bf16_r: *bytes = 2; return HOC_CUDA_R_16BF;
        case rocblas_datatype_bf16_c: *bytes = 4; return HOC_CUDA_C_16BF;
        default: return -1;
    }
}

/* rocBLAS names its compute type with a data type: f32_r accumulates in FP32 (CUBLAS_COMPUTE_32F,
 * which does not use TF32 unless asked), and so on. */
static int cublas_compute(rocblas_datatype t) {
    switch (t) {
        case rocblas_datatype_f16_r: return HOC_CUBLAS_COMPUTE_16F;
        case rocblas_datatype_f32_r: return HOC_CUBLAS_COMPUTE_32F;
        case rocblas_datatype_f64_r: return HOC_CUBLAS_COMPUTE_64F;
        case rocblas_datatype_i32_r: return HOC_CUBLAS_COMPUTE_32I;
        default: return -1;
    }
}

rocblas_status rocblas_gemm_ex(rocblas_handle handle, rocblas_operation transA, rocblas_operation transB,
                               rocblas_int m, rocblas_int n, rocblas_int k, const void *alpha, const void *a,
                               rocblas_datatype a_type, rocblas_int lda, const void *b, rocblas_datatype b_type,
                               rocblas_int ldb, const void *beta, const void *c, rocblas_datatype c_type,
                               rocblas_int ldc, void *d, rocblas_datatype d_type, rocblas_int ldd,
                               rocblas_datatype compute_type, rocblas_gemm_algo algo, int32_t solution_index,
                               uint32_t flags) {
    HOC_COUNT(rocblas_gemm_ex);
    if (!handle) return rocblas_status_invalid_handle;
    rocblas_status s = blas_enter();
    if (s != rocblas_status_success) return s;
    (void)solution_index;
    if (m < 0 || n < 0 || k < 0 || ldc < m || ldd < m) return rocblas_status_invalid_size;
    if (m == 0 || n == 0) return rocblas_status_success;
    if (!alpha || !beta || !a || !b || !c || !d) return rocblas_status_invalid_pointer;
    if (algo != rocblas_gemm_algo_standard && algo != rocblas_gemm_algo_solution_index) return rocblas_status_invalid_value;
    if (flags & ~(uint32_t)(rocblas_gemm_flags_use_cu_efficiency | rocblas_gemm_flags_check_solution_index))
        return rocblas_status_not_implemented;
    size_t ab, bb, cb, db;
    int opA = cublas_op(transA), opB = cublas_op(transB);
    int ta = cuda_type(a_type, &ab), tb = cuda_type(b_type, &bb), tc = cuda_type(c_type, &cb),
        td = cuda_type(d_type, &db), compute = cublas_compute(compute_type);
    if (opA < 0 || opB < 0) return rocblas_status_invalid_value;
    /* rocBLAS's gemm_ex pairs A and B of one type only (and C and D): any other mix is not_implemented */
    if (ta < 0 || tb < 0 || tc < 0 || td < 0 || compute < 0 || a_type != b_type || c_type != d_type)
        return rocblas_status_not_implemented;
    if (c != d) {
        /* D = alpha op(A) op(B) + beta C: copy C into D and let cuBLAS update D in place */
        if (ldc != ldd) return rocblas_status_not_implemented;
        size_t bytes = ((size_t)ldc * (size_t)(n - 1) + (size_t)m) * cb;
        if (hoc_cuda(NULL)->cuMemcpyDtoDAsync_v2((hoc_CUdeviceptr)(uintptr_t)d, (hoc_CUdeviceptr)(uintptr_t)c, bytes,
                                                 handle->stream) != HOC_CUDA_SUCCESS)
            return rocblas_status_memory_error;
    }
    return rocblas_status_of(cublas.cublasGemmEx(handle->cublas, opA, opB, m, n, k, alpha, a, ta, lda, b, tb, ldb,
                                                 beta, d, td, ldd, compute, HOC_CUBLAS_GEMM_DEFAULT));
}

const char *rocblas_status_to_string(rocblas_status status) {
    HOC_COUNT(rocblas_status_to_string);
    switch (status) {
#define NAME(s) \
    case s: return #s;
        NAME(rocblas_status_success)
        NAME(rocblas_status_invalid_handle)
        NAME(rocblas_status_not_implemented)
        NAME(rocblas_status_invalid_pointer)
        NAME(rocblas_status_invalid_size)
        NAME(rocblas_status_memory_error)
        NAME(rocblas_status_internal_error)
        NAME(rocblas_status_perf_degraded)
        NAME(rocblas_status_size_query_mismatch)
        NAME(rocblas_status_size_increased)
        NAME(rocblas_status_size_unchanged)
        NAME(rocblas_status_invalid_value)
        NAME(rocblas_status_continue)
        NAME(rocblas_status_check_numerics_fail)
        NAME(rocblas_status_excluded_from_build)
        NAME(rocblas_status_arch_mismatch)
#undef NAME
        default: return "Invalid status";
    }
}
