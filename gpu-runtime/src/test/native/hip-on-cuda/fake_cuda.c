/*
 * A fake NVIDIA stack for test-hoc (test code): libcuda, cuBLAS and NVML entry points that
 * hip-on-cuda dlsym's, answering from host memory and logging each call with its arguments, so the
 * translation (argument order, enum mapping, error mapping, context binding) is checked on a machine
 * without a GPU. Device memory is host memory; kernels do not run.
 */
#define _GNU_SOURCE
#include "hoc.h"
#include "decl_cublas.h"
#include "decl_nvml.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char log_text[1 << 16];
static size_t log_len;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void say(const char *fmt, ...) {
    pthread_mutex_lock(&log_lock);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(log_text + log_len, sizeof log_text - log_len, fmt, ap);
    va_end(ap);
    if (n > 0 && log_len + (size_t)n + 1 < sizeof log_text) {
        log_len += (size_t)n;
        log_text[log_len++] = '\n';
        log_text[log_len] = 0;
    }
    pthread_mutex_unlock(&log_lock);
}

/* The calls so far, one a line; fake_reset() empties the log. */
const char *fake_log(void) { return log_text; }
void fake_reset(void) {
    pthread_mutex_lock(&log_lock);
    log_len = 0;
    log_text[0] = 0;
    pthread_mutex_unlock(&log_lock);
}

static hoc_CUcontext current; /* the fake keeps one current context per process: enough for the checks */
static __thread hoc_CUcontext thread_current;
static int the_context;

hoc_CUresult cuInit(unsigned int flags) { say("cuInit %u", flags); return HOC_CUDA_SUCCESS; }
hoc_CUresult cuDriverGetVersion(int *v) { *v = 13000; return HOC_CUDA_SUCCESS; }
hoc_CUresult cuDeviceGetCount(int *count) { *count = 1; return HOC_CUDA_SUCCESS; }
hoc_CUresult cuDeviceGet(hoc_CUdevice *device, int ordinal) {
    if (ordinal != 0) return HOC_CUDA_ERROR_INVALID_DEVICE;
    *device = 0;
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuDeviceGetName(char *name, int len, hoc_CUdevice dev) {
    (void)dev;
    snprintf(name, (size_t)len, "Fake H100");
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuDeviceTotalMem_v2(size_t *bytes, hoc_CUdevice dev) {
    (void)dev;
    *bytes = 80ull << 30;
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuDeviceGetAttribute(int *pi, int attrib, hoc_CUdevice dev) {
    (void)dev;
    switch (attrib) {
        case HOC_CU_DEVICE_ATTRIBUTE_WARP_SIZE: *pi = 32; break;
        case HOC_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *pi = 132; break;
        case HOC_CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = 1024; break;
        case HOC_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *pi = 49152; break;
        case HOC_CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: *pi = 0x19; break;
        case HOC_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *pi = 9; break;
        case HOC_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *pi = 0; break;
        default: *pi = 7; break;
    }
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, hoc_CUdevice dev) {
    (void)dev;
    snprintf(pciBusId, (size_t)len, "0000:19:00.0");
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuDevicePrimaryCtxRetain(hoc_CUcontext *pctx, hoc_CUdevice dev) {
    say("cuDevicePrimaryCtxRetain %d", dev);
    *pctx = &the_context;
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuCtxSetCurrent(hoc_CUcontext ctx) {
    say("cuCtxSetCurrent");
    thread_current = ctx;
    current = ctx;
    return HOC_CUDA_SUCCESS;
}
/* Every call that needs a context checks the calling thread has one, as the driver does. */
#define NEED_CONTEXT() \
    if (!thread_current) return HOC_CUDA_ERROR_INVALID_CONTEXT
/* One device: it is not its own peer (cuDeviceCanAccessPeer answers 0), and the only context there
 * is to enable is the caller's own, which the driver refuses as CUDA_ERROR_INVALID_CONTEXT. */
hoc_CUresult cuDeviceCanAccessPeer(int *canAccessPeer, hoc_CUdevice dev, hoc_CUdevice peerDev) {
    say("cuDeviceCanAccessPeer %d %d", dev, peerDev);
    if (dev != 0 || peerDev != 0) return HOC_CUDA_ERROR_INVALID_DEVICE;
    *canAccessPeer = 0;
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuCtxEnablePeerAccess(hoc_CUcontext peerContext, unsigned int flags) {
    NEED_CONTEXT();
    say("cuCtxEnablePeerAccess flags=%u", flags);
    if (flags != 0) return HOC_CUDA_ERROR_INVALID_VALUE;
    if (peerContext != &the_context || peerContext == thread_current) return HOC_CUDA_ERROR_INVALID_CONTEXT;
    return HOC_CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
}
hoc_CUresult cuCtxSynchronize(void) { NEED_CONTEXT(); say("cuCtxSynchronize"); return HOC_CUDA_SUCCESS; }
hoc_CUresult cuMemGetInfo_v2(size_t *free, size_t *total) {
    NEED_CONTEXT();
    *free = 70ull << 30;
    *total = 80ull << 30;
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuMemAlloc_v2(hoc_CUdeviceptr *dptr, size_t bytesize) {
    NEED_CONTEXT();
    say("cuMemAlloc_v2 %zu", bytesize);
    if (bytesize > (1ull << 40)) return HOC_CUDA_ERROR_OUT_OF_MEMORY;
    void *p = calloc(1, bytesize);
    if (!p) return HOC_CUDA_ERROR_OUT_OF_MEMORY;
    *dptr = (hoc_CUdeviceptr)(uintptr_t)p;
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuMemFree_v2(hoc_CUdeviceptr dptr) {
    NEED_CONTEXT();
    say("cuMemFree_v2");
    free((void *)(uintptr_t)dptr);
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int flags) {
    NEED_CONTEXT();
    say("cuMemHostAlloc %zu flags=%u", bytesize, flags);
    *pp = calloc(1, bytesize);
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuMemFreeHost(void *p) {
    NEED_CONTEXT();
    say("cuMemFreeHost");
    free(p);
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuMemcpyHtoDAsync_v2(hoc_CUdeviceptr dst, const void *src, size_t n, hoc_CUstream s) {
    NEED_CONTEXT();
    say("cuMemcpyHtoDAsync_v2 %zu stream=%p", n, s);
    memcpy((void *)(uintptr_t)dst, src, n);
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuMemcpyDtoHAsync_v2(void *dst, hoc_CUdeviceptr src, size_t n, hoc_CUstream s) {
    NEED_CONTEXT();
    say("cuMemcpyDtoHAsync_v2 %zu stream=%p", n, s);
    memcpy(dst, (void *)(uintptr_t)src, n);
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuMemcpyDtoDAsync_v2(hoc_CUdeviceptr dst, hoc_CUdeviceptr src, size_t n, hoc_CUstream s) {
    NEED_CONTEXT();
    say("cuMemcpyDtoDAsync_v2 %zu stream=%p", n, s);
    memmove((void *)(uintptr_t)dst, (void *)(uintptr_t)src, n);
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuMemcpyAsync(hoc_CUdeviceptr dst, hoc_CUdeviceptr src, size_t n, hoc_CUstream s) {
    NEED_CONTEXT();
    say("cuMemcpyAsync %zu stream=%p", n, s);
    memmove((void *)(uintptr_t)dst, (void *)(uintptr_t)src, n);
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuMemsetD8Async(hoc_CUdeviceptr dst, unsigned char uc, size_t n, hoc_CUstream s) {
    NEED_CONTEXT();
    say("cuMemsetD8Async %u %zu stream=%p", uc, n, s);
    memset((void *)(uintptr_t)dst, uc, n);
    return HOC_CUDA_SUCCESS;
}
static int handles[64];
static int next_handle;
static void *handle(void) { return &handles[__atomic_fetch_add(&next_handle, 1, __ATOMIC_RELAXED) % 64]; }
hoc_CUresult cuStreamCreate(hoc_CUstream *s, unsigned int flags) {
    NEED_CONTEXT();
    say("cuStreamCreate flags=%u", flags);
    *s = handle();
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuStreamDestroy_v2(hoc_CUstream s) { NEED_CONTEXT(); (void)s; say("cuStreamDestroy_v2"); return HOC_CUDA_SUCCESS; }
hoc_CUresult cuStreamSynchronize(hoc_CUstream s) { NEED_CONTEXT(); (void)s; say("cuStreamSynchronize"); return HOC_CUDA_SUCCESS; }
hoc_CUresult cuStreamWaitEvent(hoc_CUstream s, hoc_CUevent e, unsigned int flags) {
    NEED_CONTEXT();
    (void)s;
    (void)e;
    say("cuStreamWaitEvent flags=%u", flags);
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuEventCreate(hoc_CUevent *e, unsigned int flags) {
    NEED_CONTEXT();
    say("cuEventCreate flags=%u", flags);
    *e = handle();
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuEventDestroy_v2(hoc_CUevent e) { NEED_CONTEXT(); (void)e; say("cuEventDestroy_v2"); return HOC_CUDA_SUCCESS; }
hoc_CUresult cuEventRecord(hoc_CUevent e, hoc_CUstream s) { NEED_CONTEXT(); (void)e; (void)s; say("cuEventRecord"); return HOC_CUDA_SUCCESS; }
hoc_CUresult cuEventSynchronize(hoc_CUevent e) { NEED_CONTEXT(); (void)e; say("cuEventSynchronize"); return HOC_CUDA_SUCCESS; }
hoc_CUresult cuEventQuery(hoc_CUevent e) { NEED_CONTEXT(); (void)e; say("cuEventQuery"); return HOC_CUDA_ERROR_NOT_READY; }
hoc_CUresult cuEventElapsedTime_v2(float *ms, hoc_CUevent a, hoc_CUevent b) {
    NEED_CONTEXT();
    (void)a;
    (void)b;
    *ms = 1.5f;
    say("cuEventElapsedTime_v2");
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuModuleLoadData(hoc_CUmodule *module, const void *image) {
    NEED_CONTEXT();
    const unsigned char *b = image;
    if (b[0] == 0x7f && b[1] == 'E') say("cuModuleLoadData ELF e_machine=%u", b[18] | b[19] << 8);
    else if (b[0] == '/' && b[1] == '/') say("cuModuleLoadData PTX");
    else return HOC_CUDA_ERROR_INVALID_IMAGE;
    *module = handle();
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuModuleUnload(hoc_CUmodule m) { NEED_CONTEXT(); (void)m; say("cuModuleUnload"); return HOC_CUDA_SUCCESS; }
hoc_CUresult cuModuleGetFunction(hoc_CUfunction *f, hoc_CUmodule m, const char *name) {
    NEED_CONTEXT();
    (void)m;
    say("cuModuleGetFunction %s", name);
    if (strcmp(name, "missing") == 0) return HOC_CUDA_ERROR_NOT_FOUND;
    *f = handle();
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuLaunchKernel(hoc_CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                            unsigned int by, unsigned int bz, unsigned int shared, hoc_CUstream s, void **params,
                            void **extra) {
    NEED_CONTEXT();
    (void)f;
    say("cuLaunchKernel grid=%u,%u,%u block=%u,%u,%u shared=%u stream=%p params=%s extra=%s", gx, gy, gz, bx, by, bz,
        shared, s, params ? "set" : "null", extra ? "set" : "null");
    if ((unsigned long long)bx * by * bz > 1024) return HOC_CUDA_ERROR_INVALID_VALUE; /* as the driver checks */
    /* a grid of 716 blocks faults, as a misaligned access would (CUDA_ERROR_MISALIGNED_ADDRESS) */
    return gx == 716 ? HOC_CUDA_ERROR_MISALIGNED_ADDRESS : HOC_CUDA_SUCCESS;
}
hoc_CUresult cuStreamBeginCapture_v2(hoc_CUstream s, int mode) {
    NEED_CONTEXT();
    (void)s;
    say("cuStreamBeginCapture_v2 mode=%d", mode);
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuStreamEndCapture(hoc_CUstream s, hoc_CUgraph *g) {
    NEED_CONTEXT();
    (void)s;
    say("cuStreamEndCapture");
    *g = handle();
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuGraphInstantiateWithFlags(hoc_CUgraphExec *e, hoc_CUgraph g, unsigned long long flags) {
    NEED_CONTEXT();
    (void)g;
    say("cuGraphInstantiateWithFlags flags=%llu", flags);
    *e = handle();
    return HOC_CUDA_SUCCESS;
}
hoc_CUresult cuGraphLaunch(hoc_CUgraphExec e, hoc_CUstream s) { NEED_CONTEXT(); (void)e; (void)s; say("cuGraphLaunch"); return HOC_CUDA_SUCCESS; }
hoc_CUresult cuGraphDestroy(hoc_CUgraph g) { NEED_CONTEXT(); (void)g; say("cuGraphDestroy"); return HOC_CUDA_SUCCESS; }
hoc_CUresult cuGraphExecDestroy(hoc_CUgraphExec e) { NEED_CONTEXT(); (void)e; say("cuGraphExecDestroy"); return HOC_CUDA_SUCCESS; }

/* ---- cuBLAS ---- */
hoc_cublasStatus_t cublasCreate_v2(hoc_cublasHandle_t *h) {
    if (!thread_current) return HOC_CUBLAS_STATUS_NOT_INITIALIZED;
    say("cublasCreate_v2");
    *h = handle();
    return HOC_CUBLAS_STATUS_SUCCESS;
}
hoc_cublasStatus_t cublasDestroy_v2(hoc_cublasHandle_t h) { (void)h; say("cublasDestroy_v2"); return HOC_CUBLAS_STATUS_SUCCESS; }
hoc_cublasStatus_t cublasSetStream_v2(hoc_cublasHandle_t h, hoc_CUstream s) {
    (void)h;
    say("cublasSetStream_v2 stream=%p", s);
    return HOC_CUBLAS_STATUS_SUCCESS;
}
hoc_cublasStatus_t cublasSetWorkspace_v2(hoc_cublasHandle_t h, void *w, size_t bytes) {
    (void)h;
    say("cublasSetWorkspace_v2 %s %zu", w ? "set" : "null", bytes);
    return HOC_CUBLAS_STATUS_SUCCESS;
}
hoc_cublasStatus_t cublasGemmEx(hoc_cublasHandle_t h, int ta, int tb, int m, int n, int k, const void *alpha,
                                const void *A, int at, int lda, const void *B, int bt, int ldb, const void *beta,
                                void *C, int ct, int ldc, int compute, int algo) {
    (void)h;
    (void)A;
    (void)B;
    (void)C;
    say("cublasGemmEx opA=%d opB=%d m=%d n=%d k=%d alpha=%g A=%d lda=%d B=%d ldb=%d beta=%g C=%d ldc=%d compute=%d "
        "algo=%d",
        ta, tb, m, n, k, *(const float *)alpha, at, lda, bt, ldb, *(const float *)beta, ct, ldc, compute, algo);
    return m == 13 ? HOC_CUBLAS_STATUS_ALLOC_FAILED : HOC_CUBLAS_STATUS_SUCCESS;
}

/* ---- NVML ---- */
hoc_nvmlReturn_t nvmlInit_v2(void) { say("nvmlInit_v2"); return HOC_NVML_SUCCESS; }
hoc_nvmlReturn_t nvmlShutdown(void) { say("nvmlShutdown"); return HOC_NVML_SUCCESS; }
hoc_nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *n) { *n = 1; return HOC_NVML_SUCCESS; }
hoc_nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int i, hoc_nvmlDevice_t *d) {
    if (i != 0) return HOC_NVML_ERROR_INVALID_ARGUMENT;
    *d = handle();
    return HOC_NVML_SUCCESS;
}
hoc_nvmlReturn_t nvmlDeviceGetPciInfo_v3(hoc_nvmlDevice_t d, hoc_nvmlPciInfo_t *pci) {
    (void)d;
    memset(pci, 0, sizeof *pci);
    /* the device cuDeviceGetPCIBusId names, as NVML writes it (8-digit domain) */
    snprintf(pci->busId, sizeof pci->busId, "00000000:19:00.0");
    return HOC_NVML_SUCCESS;
}
hoc_nvmlReturn_t nvmlDeviceGetMemoryInfo(hoc_nvmlDevice_t d, hoc_nvmlMemory_t *m) {
    (void)d;
    m->total = 80ull << 30;
    m->used = 3ull << 30;
    m->free = m->total - m->used;
    return HOC_NVML_SUCCESS;
}
hoc_nvmlReturn_t nvmlDeviceGetUtilizationRates(hoc_nvmlDevice_t d, hoc_nvmlUtilization_t *u) {
    (void)d;
    u->gpu = 42;
    u->memory = 7;
    return HOC_NVML_SUCCESS;
}
hoc_nvmlReturn_t nvmlDeviceGetTemperature(hoc_nvmlDevice_t d, int sensor, unsigned int *t) {
    (void)d;
    say("nvmlDeviceGetTemperature sensor=%d", sensor);
    *t = 55;
    return HOC_NVML_SUCCESS;
}
hoc_nvmlReturn_t nvmlDeviceGetPowerUsage(hoc_nvmlDevice_t d, unsigned int *mw) {
    (void)d;
    *mw = 312000;
    return HOC_NVML_SUCCESS;
}
