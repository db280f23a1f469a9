/*
 * test-translation (test code): hip-on-cuda over fake_cuda.c's logging libcuda/cuBLAS/NVML, so the
 * translation itself is checked without a GPU: which CUDA call each ROCm call becomes, with which
 * arguments and enum values, how statuses map back, the per-thread context binding, HSACO -> cubin.
 *
 * usage: test-translation LIBDIR [KERNELS_DIR]   (LIBDIR holds libhip-on-cuda.so and libfake-cuda.so;
 *        KERNELS_DIR, optional: *.hsaco and *.cubin of the kernels module, for hipModuleLoadData)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hip/hip_runtime_api.h>
#include <rocblas/rocblas.h>
#include <rocm_smi/rocm_smi.h>
typedef struct miopenTensorArgument_t miopenTensorArgument_t;
#include <miopen/miopen.h>

static int failures;
#define CHECK(cond, ...)                             \
    do {                                             \
        if (!(cond)) {                               \
            failures++;                              \
            fprintf(stderr, "FAILED (line %d): ", __LINE__); \
            fprintf(stderr, __VA_ARGS__);            \
            fputc('\n', stderr);                     \
        }                                            \
    } while (0)

static void *lib;
static const char *(*fake_log)(void);
static void (*fake_reset)(void);
#define BIND(name) __typeof__(&name) p_##name = (__typeof__(&name))dlsym(lib, #name)
#define LOGGED(text) (strstr(fake_log(), text) != NULL)

static void *other_thread(void *arg) {
    __typeof__(&hipMalloc) m = arg;
    void *p = NULL;
    /* no hipSetDevice on this thread: HIP's device 0 is current, so the context must be bound here too */
    return (void *)(intptr_t)m(&p, 64);
}

static void *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *b = malloc((size_t)n);
    if (fread(b, 1, (size_t)n, f) != (size_t)n) n = 0;
    fclose(f);
    *size = (size_t)n;
    return b;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    char fake[4096], hoc[4096];
    snprintf(fake, sizeof fake, "%s/libfake-cuda.so", argv[1]);
    snprintf(hoc, sizeof hoc, "%s/libhip-on-cuda.so", argv[1]);
    setenv("HIP_ON_CUDA_LIBCUDA", fake, 1);
    setenv("HIP_ON_CUDA_LIBCUBLAS", fake, 1);
    setenv("HIP_ON_CUDA_LIBNVML", fake, 1);
    setenv("HIP_ON_CUDA_SOFTMAX", "kernel", 1);
    if (argc > 2) setenv("HIP_ON_CUDA_CUBIN_DIR", argv[2], 1);
    void *fh = dlopen(fake, RTLD_NOW | RTLD_LOCAL);
    lib = dlopen(hoc, RTLD_NOW | RTLD_LOCAL);
    if (!fh || !lib) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    fake_log = (const char *(*)(void))dlsym(fh, "fake_log");
    fake_reset = (void (*)(void))dlsym(fh, "fake_reset");

    BIND(hipGetDeviceCount); BIND(hipSetDevice); BIND(hipGetDevicePropertiesR0600); BIND(hipDeviceGetPCIBusId);
    BIND(hipMalloc); BIND(hipFree); BIND(hipHostMalloc); BIND(hipHostFree); BIND(hipMemcpyAsync);
    BIND(hipMemsetAsync); BIND(hipMemGetInfo); BIND(hipStreamCreateWithFlags); BIND(hipEventCreateWithFlags);
    BIND(hipEventQuery); BIND(hipEventElapsedTime); BIND(hipStreamBeginCapture); BIND(hipStreamEndCapture);
    BIND(hipGraphInstantiate); BIND(hipModuleLoadData); BIND(hipModuleGetFunction); BIND(hipModuleLaunchKernel);
    BIND(hipGetErrorName); BIND(hipStreamWaitEvent); BIND(hipDeviceCanAccessPeer); BIND(hipDeviceEnablePeerAccess);
    BIND(rocblas_create_handle); BIND(rocblas_set_stream); BIND(rocblas_gemm_ex); BIND(rocblas_destroy_handle);
    BIND(miopenCreateWithStream); BIND(miopenCreateTensorDescriptor); BIND(miopenSet4dTensorDescriptor);
    BIND(miopenSoftmaxForward_V2); BIND(miopenDestroyTensorDescriptor); BIND(miopenDestroy);
    BIND(rsmi_init); BIND(rsmi_num_monitor_devices); BIND(rsmi_dev_pci_id_get); BIND(rsmi_dev_memory_usage_get);
    BIND(rsmi_dev_memory_total_get); BIND(rsmi_dev_busy_percent_get); BIND(rsmi_dev_temp_metric_get);
    BIND(rsmi_dev_power_get); BIND(rsmi_shut_down);

    /* devices and properties */
    int count = 0;
    CHECK(p_hipGetDeviceCount(&count) == hipSuccess && count == 1, "hipGetDeviceCount: %d", count);
    CHECK(p_hipSetDevice(1) == hipErrorInvalidDevice, "hipSetDevice(1) of one device");
    CHECK(p_hipSetDevice(0) == hipSuccess, "hipSetDevice(0)");
    CHECK(LOGGED("cuDevicePrimaryCtxRetain 0") && LOGGED("cuCtxSetCurrent"), "the primary context made current");
    hipDeviceProp_tR0600 prop;
    CHECK(p_hipGetDevicePropertiesR0600(&prop, 0) == hipSuccess, "hipGetDevicePropertiesR0600");
    CHECK(strcmp(prop.name, "Fake H100 [hip-on-cuda]") == 0, "name %s", prop.name);
    CHECK(strcmp(prop.gcnArchName, "gfx1100") == 0, "gcnArchName %s", prop.gcnArchName);
    CHECK(prop.major == 11 && prop.minor == 0, "gfx version %d.%d", prop.major, prop.minor);
    CHECK(prop.warpSize == 32 && prop.multiProcessorCount == 132 && prop.maxThreadsPerBlock == 1024 &&
              prop.sharedMemPerBlock == 49152 && prop.totalGlobalMem == 80ull << 30 && prop.pciBusID == 0x19,
          "properties");
    char pci[32];
    CHECK(p_hipDeviceGetPCIBusId(pci, sizeof pci, 0) == hipSuccess && strcmp(pci, "0000:19:00.0") == 0, "pci %s", pci);

    /* peer access: ordinals become CUdevices; the one device is not its own peer */
    int canAccess = -1;
    fake_reset();
    CHECK(p_hipDeviceCanAccessPeer(&canAccess, 0, 0) == hipSuccess && canAccess == 0 &&
              LOGGED("cuDeviceCanAccessPeer 0 0"),
          "hipDeviceCanAccessPeer(0, 0): %d", canAccess);
    CHECK(p_hipDeviceCanAccessPeer(&canAccess, 0, 1) == hipErrorInvalidDevice, "hipDeviceCanAccessPeer of device 1");
    CHECK(p_hipDeviceEnablePeerAccess(0, 0) == hipErrorInvalidDevice, "hipDeviceEnablePeerAccess to itself");
    CHECK(p_hipDeviceEnablePeerAccess(1, 0) == hipErrorInvalidDevice, "hipDeviceEnablePeerAccess to device 1");
    CHECK(p_hipDeviceEnablePeerAccess(0, 1) == hipErrorInvalidValue, "hipDeviceEnablePeerAccess flags must be 0");

    /* memory and copies: the kind picks the CUDA copy */
    void *d = NULL, *h = NULL;
    hipStream_t s = NULL;
    CHECK(p_hipStreamCreateWithFlags(&s, hipStreamNonBlocking) == hipSuccess && LOGGED("cuStreamCreate flags=1"),
          "non-blocking stream");
    CHECK(p_hipMalloc(&d, 256) == hipSuccess && d && LOGGED("cuMemAlloc_v2 256"), "hipMalloc");
    CHECK(p_hipMalloc(&h, 1ull << 41) == hipErrorOutOfMemory, "hipMalloc beyond memory is hipErrorOutOfMemory");
    CHECK(p_hipHostMalloc(&h, 128, hipHostMallocDefault) == hipSuccess && LOGGED("cuMemHostAlloc 128 flags=0"),
          "hipHostMalloc");
    memset(h, 7, 128);
    CHECK(p_hipMemcpyAsync(d, h, 128, hipMemcpyHostToDevice, s) == hipSuccess && LOGGED("cuMemcpyHtoDAsync_v2 128"),
          "H2D");
    CHECK(p_hipMemcpyAsync((char *)d + 128, d, 128, hipMemcpyDeviceToDevice, s) == hipSuccess &&
              LOGGED("cuMemcpyDtoDAsync_v2 128"), "D2D");
    CHECK(p_hipMemsetAsync(d, 0x1ff, 16, s) == hipSuccess && LOGGED("cuMemsetD8Async 255 16"), "memset low byte");
    memset(h, 0, 128);
    CHECK(p_hipMemcpyAsync(h, (char *)d + 128, 128, hipMemcpyDeviceToHost, s) == hipSuccess &&
              LOGGED("cuMemcpyDtoHAsync_v2 128") && ((unsigned char *)h)[0] == 7, "D2H");
    size_t free_bytes = 0, total = 0;
    CHECK(p_hipMemGetInfo(&free_bytes, &total) == hipSuccess && total == 80ull << 30, "hipMemGetInfo");
    CHECK(p_hipFree(d) == hipSuccess && p_hipHostFree(h) == hipSuccess, "frees");

    /* events and graphs */
    hipEvent_t e;
    CHECK(p_hipEventCreateWithFlags(&e, hipEventDisableTiming) == hipSuccess && LOGGED("cuEventCreate flags=2"),
          "event without timing");
    CHECK(p_hipEventQuery(e) == hipErrorNotReady, "hipEventQuery not ready");
    CHECK(p_hipStreamWaitEvent(s, e, 0) == hipSuccess && LOGGED("cuStreamWaitEvent flags=0"), "wait");
    float ms = 0;
    CHECK(p_hipEventElapsedTime(&ms, e, e) == hipSuccess && ms == 1.5f, "elapsed");
    CHECK(p_hipStreamBeginCapture(s, hipStreamCaptureModeRelaxed) == hipSuccess &&
              LOGGED("cuStreamBeginCapture_v2 mode=2"), "relaxed capture");
    hipGraph_t g;
    hipGraphExec_t x;
    CHECK(p_hipStreamEndCapture(s, &g) == hipSuccess, "end capture");
    CHECK(p_hipGraphInstantiate(&x, g, NULL, NULL, 0) == hipSuccess && LOGGED("cuGraphInstantiateWithFlags flags=0"),
          "instantiate");

    /* modules and launches, errors */
    hipModule_t mod;
    hipFunction_t fn;
    static const char ptx[] = "// a PTX text\n";
    CHECK(p_hipModuleLoadData(&mod, ptx) == hipSuccess && LOGGED("cuModuleLoadData PTX"), "non-AMD image as is");
    CHECK(p_hipModuleLoadData(&mod, "garbage") == hipErrorInvalidImage, "garbage is hipErrorInvalidImage");
    CHECK(p_hipModuleGetFunction(&fn, mod, "missing") == hipErrorNotFound, "missing kernel is hipErrorNotFound");
    CHECK(p_hipModuleGetFunction(&fn, mod, "k") == hipSuccess, "kernel");
    void *args[] = {&d};
    CHECK(p_hipModuleLaunchKernel(fn, 3, 2, 1, 128, 1, 1, 64, s, args, NULL) == hipSuccess &&
              LOGGED("cuLaunchKernel grid=3,2,1 block=128,1,1 shared=64"), "launch");
    int rc = p_hipModuleLaunchKernel(fn, 1, 1, 1, 2048, 1, 1, 0, s, args, NULL);
    CHECK(rc == hipErrorInvalidValue, "a block beyond the limit is hipErrorInvalidValue: %d", rc);
    rc = p_hipModuleLaunchKernel(fn, 716, 1, 1, 128, 1, 1, 0, s, args, NULL);
    CHECK(rc == hipErrorLaunchFailure && strcmp(p_hipGetErrorName(rc), "hipErrorLaunchFailure") == 0,
          "a misaligned access is hipErrorLaunchFailure: %d", rc);

    /* another thread binds the context itself */
    pthread_t t;
    void *result;
    fake_reset();
    pthread_create(&t, NULL, other_thread, (void *)p_hipMalloc);
    pthread_join(t, &result);
    CHECK((intptr_t)result == hipSuccess && LOGGED("cuCtxSetCurrent") && !LOGGED("cuDevicePrimaryCtxRetain"),
          "a new thread gets the retained primary context made current: %d", (int)(intptr_t)result);

    /* rocBLAS: handle with its workspace, the GEMM's enums */
    rocblas_handle b;
    CHECK(p_rocblas_create_handle(&b) == rocblas_status_success && LOGGED("cublasCreate_v2") &&
              LOGGED("cublasSetWorkspace_v2 set 33554432"), "rocblas_create_handle");
    fake_reset();
    CHECK(p_rocblas_set_stream(b, s) == rocblas_status_success && LOGGED("cublasSetStream_v2") &&
              LOGGED("cublasSetWorkspace_v2 set"), "rocblas_set_stream sets the workspace again");
    float one = 1, zero = 0;
    char A[64], B[64], C[64];
    rc = p_rocblas_gemm_ex(b, rocblas_operation_transpose, rocblas_operation_none, 4, 2, 8, &one, A,
                           rocblas_datatype_f16_r, 8, B, rocblas_datatype_f16_r, 8, &zero, C, rocblas_datatype_f32_r,
                           4, C, rocblas_datatype_f32_r, 4, rocblas_datatype_f32_r, rocblas_gemm_algo_standard, 0, 0);
    CHECK(rc == rocblas_status_success &&
              LOGGED("cublasGemmEx opA=1 opB=0 m=4 n=2 k=8 alpha=1 A=2 lda=8 B=2 ldb=8 beta=0 C=0 ldc=4 compute=68 algo=-1"),
          "f16 x f16 -> f32 GEMM: %s", fake_log());
    rc = p_rocblas_gemm_ex(b, rocblas_operation_none, rocblas_operation_transpose, 4, 2, 8, &one, A,
                           rocblas_datatype_bf16_r, 4, B, rocblas_datatype_bf16_r, 2, &zero, C, rocblas_datatype_f32_r,
                           4, C, rocblas_datatype_f32_r, 4, rocblas_datatype_f32_r, rocblas_gemm_algo_standard, 0, 0);
    CHECK(rc == rocblas_status_success && LOGGED("opA=0 opB=1 m=4 n=2 k=8 alpha=1 A=14 lda=4 B=14 ldb=2"), "bf16 GEMM");
    rc = p_rocblas_gemm_ex(b, rocblas_operation_none, rocblas_operation_none, 13, 2, 8, &one, A,
                           rocblas_datatype_f32_r, 13, B, rocblas_datatype_f32_r, 8, &zero, C, rocblas_datatype_f32_r,
                           13, C, rocblas_datatype_f32_r, 13, rocblas_datatype_f32_r, rocblas_gemm_algo_standard, 0, 0);
    CHECK(rc == rocblas_status_memory_error, "CUBLAS_STATUS_ALLOC_FAILED is rocblas_status_memory_error: %d", rc);
    fake_reset();
    rc = p_rocblas_gemm_ex(b, rocblas_operation_none, rocblas_operation_none, 4, 2, 8, &one, A,
                           rocblas_datatype_f16_r, 4, B, rocblas_datatype_bf16_r, 8, &zero, C, rocblas_datatype_f32_r,
                           4, C, rocblas_datatype_f32_r, 4, rocblas_datatype_f32_r, rocblas_gemm_algo_standard, 0, 0);
    CHECK(rc == rocblas_status_not_implemented && !LOGGED("cublasGemmEx"),
          "f16 x bf16 is not a pair rocBLAS computes: %d", rc);
    CHECK(p_rocblas_destroy_handle(b) == rocblas_status_success, "rocblas_destroy_handle");

    /* MIOpen softmax by the PTX kernel: one block of 256 per row */
    miopenHandle_t mh;
    miopenTensorDescriptor_t desc;
    fake_reset();
    CHECK(p_miopenCreateWithStream(&mh, s) == miopenStatusSuccess && LOGGED("cuModuleLoadData PTX") &&
              LOGGED("cuModuleGetFunction hoc_softmax_channel"), "MIOpen handle loads the softmax kernel");
    CHECK(p_miopenCreateTensorDescriptor(&desc) == miopenStatusSuccess &&
              p_miopenSet4dTensorDescriptor(desc, miopenFloat, 0, 1000, 1, 1) == miopenStatusBadParm,
          "an empty tensor is miopenStatusBadParm");
    CHECK(p_miopenSet4dTensorDescriptor(desc, miopenFloat, 37, 1000, 1, 1) == miopenStatusSuccess, "descriptor");
    rc = p_miopenSoftmaxForward_V2(mh, &one, desc, A, &zero, desc, C, MIOPEN_SOFTMAX_ACCURATE,
                                   MIOPEN_SOFTMAX_MODE_CHANNEL);
    CHECK(rc == miopenStatusSuccess && LOGGED("cuLaunchKernel grid=37,1,1 block=256,1,1 shared=0"), "softmax launch");
    CHECK(p_miopenSoftmaxForward_V2(mh, &one, desc, A, &zero, desc, C, MIOPEN_SOFTMAX_LOG,
                                    MIOPEN_SOFTMAX_MODE_CHANNEL) == miopenStatusNotImplemented, "log softmax by kernel");
    CHECK(p_miopenDestroyTensorDescriptor(desc) == miopenStatusSuccess && p_miopenDestroy(mh) == miopenStatusSuccess,
          "MIOpen destroy");

    /* rocm-smi over NVML */
    uint32_t n = 0;
    uint64_t v = 0;
    int64_t temp = 0;
    uint32_t busy = 0;
    RSMI_POWER_TYPE type;
    CHECK(p_rsmi_num_monitor_devices(&n) == RSMI_STATUS_INIT_ERROR, "rocm-smi before rsmi_init");
    CHECK(p_rsmi_init(0) == RSMI_STATUS_SUCCESS && p_rsmi_num_monitor_devices(&n) == RSMI_STATUS_SUCCESS && n == 1,
          "rsmi_init");
    CHECK(p_rsmi_dev_pci_id_get(0, &v) == RSMI_STATUS_SUCCESS && v == 0x19 << 8,
          "BDFID %llx", (unsigned long long)v);
    CHECK(p_rsmi_dev_memory_usage_get(0, RSMI_MEM_TYPE_VRAM, &v) == RSMI_STATUS_SUCCESS && v == 3ull << 30, "used");
    CHECK(p_rsmi_dev_memory_total_get(0, RSMI_MEM_TYPE_VRAM, &v) == RSMI_STATUS_SUCCESS && v == 80ull << 30, "total");
    CHECK(p_rsmi_dev_busy_percent_get(0, &busy) == RSMI_STATUS_SUCCESS && busy == 42, "busy");
    CHECK(p_rsmi_dev_temp_metric_get(0, RSMI_TEMP_TYPE_EDGE, RSMI_TEMP_CURRENT, &temp) == RSMI_STATUS_SUCCESS &&
              temp == 55000, "millidegrees");
    CHECK(p_rsmi_dev_power_get(0, &v, &type) == RSMI_STATUS_SUCCESS && v == 312000000 && type == RSMI_CURRENT_POWER,
          "microwatts");
    CHECK(p_rsmi_dev_busy_percent_get(3, &busy) == RSMI_STATUS_INVALID_ARGS, "no device 3");
    CHECK(p_rsmi_shut_down() == RSMI_STATUS_SUCCESS, "shut down");

    /* HSACO -> cubin through hipModuleLoadData, over the kernels module's code objects */
    if (argc > 2) {
        DIR *dir = opendir(argv[2]);
        struct dirent *ent;
        int loaded = 0;
        while (dir && (ent = readdir(dir))) {
            size_t len = strlen(ent->d_name);
            if (len < 7 || strcmp(ent->d_name + len - 6, ".hsaco") != 0) continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[2], ent->d_name);
            size_t size;
            void *image = read_all(path, &size);
            fake_reset();
            CHECK(image && p_hipModuleLoadData(&mod, image) == hipSuccess && LOGGED("cuModuleLoadData ELF e_machine=190"),
                  "%s loads as a CUDA ELF (EM_CUDA 190)", ent->d_name);
            free(image);
            loaded++;
        }
        if (dir) closedir(dir);
        CHECK(loaded > 0, "no HSACO in %s", argv[2]);
        printf("test-translation: %d HSACO loaded as their cubins\n", loaded);
    }
    if (failures) {
        fprintf(stderr, "test-translation: %d check(s) failed\n", failures);
        return 1;
    }
    printf("test-translation: all checks passed\n");
    return 0;
}
