/*
 * The HIP runtime half of hip-on-cuda (test code; see hoc.h): hipXxx -> cuXxx, hipError_t from
 * CUresult, hipDeviceProp_tR0600 from device attributes, HSACO images replaced by the CUBIN built
 * from the same kernel source, plus the call counters behind HIP_ON_CUDA_TRACE.
 */
#define _GNU_SOURCE
#include "hoc.h"

#include <dlfcn.h>
#include <elf.h>
#include <dirent.h>
#include <fcntl.h>
#include <hip/hip_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- call counters ---------------------------------------------------------------------- */

static const char *const symbol_names[HOC_SYMBOL_COUNT] = {
#define X(name, lib) #name,
#include "symbols.def"
#undef X
};
static unsigned long long call_counts[HOC_SYMBOL_COUNT];

static void append_line(const char *path, const char *line) {
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return;
    ssize_t ignored = write(fd, line, strlen(line));
    (void)ignored;
    close(fd);
}

void hoc_count(enum hoc_symbol symbol) {
    if (__atomic_fetch_add(&call_counts[symbol], 1, __ATOMIC_RELAXED) == 0) {
        /* the first call of each symbol is logged at once: a process that dies still tells */
        const char *trace = getenv("HIP_ON_CUDA_TRACE");
        if (trace && *trace) {
            char path[4096], line[256];
            snprintf(path, sizeof path, "%s.first", trace);
            snprintf(line, sizeof line, "%s\t%d\n", symbol_names[symbol], (int)getpid());
            append_line(path, line);
        }
    }
}

/* Writes "symbol<TAB>library<TAB>calls" for every exported symbol, called or not. */
int hipOnCudaWriteTrace(const char *path) {
    static const char *const libraries[HOC_SYMBOL_COUNT] = {
#define X(name, lib) #lib,
#include "symbols.def"
#undef X
    };
    FILE *f = fopen(path, "a");
    if (!f) return -1;
    fprintf(f, "# hip-on-cuda calls, pid %d\n", (int)getpid());
    for (int i = 0; i < HOC_SYMBOL_COUNT; i++) {
        fprintf(f, "%s\t%s\t%llu\n", symbol_names[i], libraries[i],
                __atomic_load_n(&call_counts[i], __ATOMIC_RELAXED));
    }
    return fclose(f);
}

__attribute__((destructor)) static void write_trace_at_exit(void) {
    const char *trace = getenv("HIP_ON_CUDA_TRACE");
    if (trace && *trace) hipOnCudaWriteTrace(trace);
}

/* ---- loading the driver ----------------------------------------------------------------- */

void *hoc_dlopen_first(const char *const *names) {
    for (; *names; names++) {
        void *h = dlopen(*names, RTLD_NOW | RTLD_LOCAL);
        if (h) return h;
    }
    return NULL;
}

static struct hoc_cuda cuda;
static hoc_CUresult cuda_status = HOC_CUDA_ERROR_NO_DEVICE;
static int device_count;
static pthread_once_t cuda_once = PTHREAD_ONCE_INIT;

#define HOC_MAX_DEVICES 64
static hoc_CUcontext primary[HOC_MAX_DEVICES];
static pthread_mutex_t primary_lock = PTHREAD_MUTEX_INITIALIZER;

static void load_cuda(void) {
    const char *env = getenv("HIP_ON_CUDA_LIBCUDA");
    const char *names[] = {env && *env ? env : "libcuda.so.1", NULL};
    void *h = hoc_dlopen_first(names);
    if (!h) {
        cuda_status = HOC_CUDA_ERROR_NO_DEVICE;
        return;
    }
#define HOC_RESOLVE(name, params)                                   \
    cuda.name = (hoc_pfn_##name)dlsym(h, #name);                    \
    if (!cuda.name) {                                               \
        fprintf(stderr, "hip-on-cuda: libcuda lacks %s\n", #name); \
        cuda_status = HOC_CUDA_ERROR_NO_DEVICE;                     \
        return;                                                     \
    }
    HOC_CUDA_FUNCTIONS(HOC_RESOLVE)
#undef HOC_RESOLVE
    cuda_status = cuda.cuInit(0);
    if (cuda_status != HOC_CUDA_SUCCESS) return;
    cuda_status = cuda.cuDeviceGetCount(&device_count);
    if (cuda_status == HOC_CUDA_SUCCESS && device_count == 0) cuda_status = HOC_CUDA_ERROR_NO_DEVICE;
    if (device_count > HOC_MAX_DEVICES) device_count = HOC_MAX_DEVICES;
}

const struct hoc_cuda *hoc_cuda(hoc_CUresult *status) {
    pthread_once(&cuda_once, load_cuda);
    if (status) *status = cuda_status;
    return cuda_status == HOC_CUDA_SUCCESS ? &cuda : NULL;
}

/* ---- CUresult -> hipError_t ------------------------------------------------------------- */

/* HIP took CUDA's numbers for the errors both have; the ones HIP lacks become the nearest HIP error. */
static hipError_t hip_error(hoc_CUresult r) {
    switch (r) {
        case HOC_CUDA_SUCCESS: return hipSuccess;
        case HOC_CUDA_ERROR_INVALID_VALUE: return hipErrorInvalidValue;
        case HOC_CUDA_ERROR_OUT_OF_MEMORY: return hipErrorOutOfMemory;
        case HOC_CUDA_ERROR_NOT_INITIALIZED: return hipErrorNotInitialized;
        case HOC_CUDA_ERROR_DEINITIALIZED: return hipErrorDeinitialized;
        case HOC_CUDA_ERROR_PROFILER_DISABLED: return hipErrorProfilerDisabled;
        case HOC_CUDA_ERROR_PROFILER_NOT_INITIALIZED: return hipErrorProfilerNotInitialized;
        case HOC_CUDA_ERROR_PROFILER_ALREADY_STARTED: return hipErrorProfilerAlreadyStarted;
        case HOC_CUDA_ERROR_PROFILER_ALREADY_STOPPED: return hipErrorProfilerAlreadyStopped;
        case HOC_CUDA_ERROR_STUB_LIBRARY: return hipErrorInsufficientDriver;
        case HOC_CUDA_ERROR_DEVICE_UNAVAILABLE: return hipErrorNoDevice;
        case HOC_CUDA_ERROR_NO_DEVICE: return hipErrorNoDevice;
        case HOC_CUDA_ERROR_INVALID_DEVICE: return hipErrorInvalidDevice;
        case HOC_CUDA_ERROR_DEVICE_NOT_LICENSED: return hipErrorInvalidDevice;
        case HOC_CUDA_ERROR_INVALID_IMAGE: return hipErrorInvalidImage;
        case HOC_CUDA_ERROR_INVALID_CONTEXT: return hipErrorInvalidContext;
        case HOC_CUDA_ERROR_CONTEXT_ALREADY_CURRENT: return hipErrorContextAlreadyCurrent;
        case HOC_CUDA_ERROR_MAP_FAILED: return hipErrorMapFailed;
        case HOC_CUDA_ERROR_UNMAP_FAILED: return hipErrorUnmapFailed;
        case HOC_CUDA_ERROR_ARRAY_IS_MAPPED: return hipErrorArrayIsMapped;
        case HOC_CUDA_ERROR_ALREADY_MAPPED: return hipErrorAlreadyMapped;
        case HOC_CUDA_ERROR_NO_BINARY_FOR_GPU: return hipErrorNoBinaryForGpu;
        case HOC_CUDA_ERROR_ALREADY_ACQUIRED: return hipErrorAlreadyAcquired;
        case HOC_CUDA_ERROR_NOT_MAPPED: return hipErrorNotMapped;
        case HOC_CUDA_ERROR_NOT_MAPPED_AS_ARRAY: return hipErrorNotMappedAsArray;
        case HOC_CUDA_ERROR_NOT_MAPPED_AS_POINTER: return hipErrorNotMappedAsPointer;
        case HOC_CUDA_ERROR_ECC_UNCORRECTABLE: return hipErrorECCNotCorrectable;
        case HOC_CUDA_ERROR_UNSUPPORTED_LIMIT: return hipErrorUnsupportedLimit;
        case HOC_CUDA_ERROR_CONTEXT_ALREADY_IN_USE: return hipErrorContextAlreadyInUse;
        case HOC_CUDA_ERROR_PEER_ACCESS_UNSUPPORTED: return hipErrorPeerAccessUnsupported;
        case HOC_CUDA_ERROR_INVALID_PTX: return hipErrorInvalidKernelFile;
        case HOC_CUDA_ERROR_INVALID_GRAPHICS_CONTEXT: return hipErrorInvalidGraphicsContext;
        case HOC_CUDA_ERROR_NVLINK_UNCORRECTABLE: return hipErrorECCNotCorrectable;
        case HOC_CUDA_ERROR_JIT_COMPILER_NOT_FOUND: return hipErrorInvalidKernelFile;
        case HOC_CUDA_ERROR_UNSUPPORTED_PTX_VERSION: return hipErrorInvalidKernelFile;
        case HOC_CUDA_ERROR_INVALID_SOURCE: return hipErrorInvalidSource;
        case HOC_CUDA_ERROR_FILE_NOT_FOUND: return hipErrorFileNotFound;
        case HOC_CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND: return hipErrorSharedObjectSymbolNotFound;
        case HOC_CUDA_ERROR_SHARED_OBJECT_INIT_FAILED: return hipErrorSharedObjectInitFailed;
        case HOC_CUDA_ERROR_OPERATING_SYSTEM: return hipErrorOperatingSystem;
        case HOC_CUDA_ERROR_INVALID_HANDLE: return hipErrorInvalidHandle;
        case HOC_CUDA_ERROR_ILLEGAL_STATE: return hipErrorIllegalState;
        case HOC_CUDA_ERROR_NOT_FOUND: return hipErrorNotFound;
        case HOC_CUDA_ERROR_NOT_READY: return hipErrorNotReady;
        case HOC_CUDA_ERROR_ILLEGAL_ADDRESS: return hipErrorIllegalAddress;
        case HOC_CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: return hipErrorLaunchOutOfResources;
        case HOC_CUDA_ERROR_LAUNCH_TIMEOUT: return hipErrorLaunchTimeOut;
        case HOC_CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING: return hipErrorInvalidTexture;
        case HOC_CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED: return hipErrorPeerAccessAlreadyEnabled;
        case HOC_CUDA_ERROR_PEER_ACCESS_NOT_ENABLED: return hipErrorPeerAccessNotEnabled;
        case HOC_CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE: return hipErrorSetOnActiveProcess;
        case HOC_CUDA_ERROR_CONTEXT_IS_DESTROYED: return hipErrorContextIsDestroyed;
        case HOC_CUDA_ERROR_ASSERT: return hipErrorAssert;
        case HOC_CUDA_ERROR_TOO_MANY_PEERS: return hipErrorPeerAccessUnsupported;
        case HOC_CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED: return hipErrorHostMemoryAlreadyRegistered;
        case HOC_CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED: return hipErrorHostMemoryNotRegistered;
        /* HIP has no codes for these kernel faults: like HIP on AMD, they surface as a launch failure
         * (sticky, as on CUDA). */
        case HOC_CUDA_ERROR_HARDWARE_STACK_ERROR:
        case HOC_CUDA_ERROR_ILLEGAL_INSTRUCTION:
        case HOC_CUDA_ERROR_MISALIGNED_ADDRESS:
        case HOC_CUDA_ERROR_INVALID_ADDRESS_SPACE:
        case HOC_CUDA_ERROR_INVALID_PC:
        case HOC_CUDA_ERROR_LAUNCH_FAILED: return hipErrorLaunchFailure;
        case HOC_CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE: return hipErrorCooperativeLaunchTooLarge;
        case HOC_CUDA_ERROR_NOT_PERMITTED: return hipErrorNotSupported;
        case HOC_CUDA_ERROR_NOT_SUPPORTED: return hipErrorNotSupported;
        case HOC_CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED: return hipErrorStreamCaptureUnsupported;
        case HOC_CUDA_ERROR_STREAM_CAPTURE_INVALIDATED: return hipErrorStreamCaptureInvalidated;
        case HOC_CUDA_ERROR_STREAM_CAPTURE_MERGE: return hipErrorStreamCaptureMerge;
        case HOC_CUDA_ERROR_STREAM_CAPTURE_UNMATCHED: return hipErrorStreamCaptureUnmatched;
        case HOC_CUDA_ERROR_STREAM_CAPTURE_UNJOINED: return hipErrorStreamCaptureUnjoined;
        case HOC_CUDA_ERROR_STREAM_CAPTURE_ISOLATION: return hipErrorStreamCaptureIsolation;
        case HOC_CUDA_ERROR_STREAM_CAPTURE_IMPLICIT: return hipErrorStreamCaptureImplicit;
        case HOC_CUDA_ERROR_CAPTURED_EVENT: return hipErrorCapturedEvent;
        case HOC_CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD: return hipErrorStreamCaptureWrongThread;
        case HOC_CUDA_ERROR_TIMEOUT: return hipErrorLaunchTimeOut;
        case HOC_CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE: return hipErrorGraphExecUpdateFailure;
        default: return hipErrorUnknown;
    }
}

/* ---- devices and contexts --------------------------------------------------------------- */

/* HIP's current device is per thread; so is CUDA's current context, which follows it lazily. */
static __thread int current_device;
static __thread hoc_CUcontext bound_context;
static __thread int bound_device = -1;

static hoc_CUresult primary_context(int device, hoc_CUcontext *out) {
    pthread_mutex_lock(&primary_lock);
    hoc_CUresult r = HOC_CUDA_SUCCESS;
    if (!primary[device]) {
        hoc_CUdevice d;
        r = cuda.cuDeviceGet(&d, device);
        if (r == HOC_CUDA_SUCCESS) r = cuda.cuDevicePrimaryCtxRetain(&primary[device], d);
    }
    *out = primary[device];
    pthread_mutex_unlock(&primary_lock);
    return r;
}

hoc_CUresult hoc_bind(void) {
    hoc_CUresult r;
    if (!hoc_cuda(&r)) return r;
    if (bound_device == current_device) return HOC_CUDA_SUCCESS; /* this thread already has it current */
    hoc_CUcontext ctx;
    r = primary_context(current_device, &ctx);
    if (r != HOC_CUDA_SUCCESS) return r;
    if (ctx != bound_context) {
        r = cuda.cuCtxSetCurrent(ctx);
        if (r != HOC_CUDA_SUCCESS) return r;
        bound_context = ctx;
    }
    bound_device = current_device;
    return HOC_CUDA_SUCCESS;
}

/* Every device call: count it, make the thread's device current, then translate the status. */
#define ENTER(name)                                                  \
    HOC_COUNT(name);                                                 \
    do {                                                             \
        hoc_CUresult bind_status_ = hoc_bind();                      \
        if (bind_status_ != HOC_CUDA_SUCCESS) return hip_error(bind_status_); \
    } while (0)
#define CU(call) hip_error(cuda.call)

hipError_t hipGetDeviceCount(int *count) {
    HOC_COUNT(hipGetDeviceCount);
    if (!count) return hipErrorInvalidValue;
    hoc_CUresult r;
    *count = 0;
    if (!hoc_cuda(&r)) return hip_error(r);
    *count = device_count;
    return hipSuccess;
}

hipError_t hipRuntimeGetVersion(int *runtimeVersion) {
    HOC_COUNT(hipRuntimeGetVersion);
    if (!runtimeVersion) return hipErrorInvalidValue;
    *runtimeVersion = HIP_VERSION; /* the headers' HIP, 6.4: answered without a device, as HIP does */
    return hipSuccess;
}

hipError_t hipDriverGetVersion(int *driverVersion) {
    HOC_COUNT(hipDriverGetVersion);
    if (!driverVersion) return hipErrorInvalidValue;
    *driverVersion = HIP_VERSION;
    return hipSuccess;
}

hipError_t hipSetDevice(int deviceId) {
    HOC_COUNT(hipSetDevice);
    hoc_CUresult r;
    if (!hoc_cuda(&r)) return hip_error(r);
    if (deviceId < 0 || deviceId >= device_count) return hipErrorInvalidDevice;
    current_device = deviceId;
    return hip_error(hoc_bind());
}

/* The gcnArchName reported: an AMD name so the module cache picks a HSACO (see hipModuleLoadData).
 * gfx1100 by default: RDNA3 runs wave32, the NVIDIA warp size, so the host's wave-size arithmetic
 * is the one an AMD wave32 device gets. */
static const char *gcn_arch_name(void) {
    const char *env = getenv("HIP_ON_CUDA_GCN_ARCH");
    return env && *env ? env : "gfx1100";
}

static int attribute(int attr, hoc_CUdevice d) {
    int v = 0;
    if (cuda.cuDeviceGetAttribute(&v, attr, d) != HOC_CUDA_SUCCESS) v = 0;
    return v;
}

hipError_t hipGetDevicePropertiesR0600(hipDeviceProp_tR0600 *prop, int deviceId) {
    ENTER(hipGetDevicePropertiesR0600);
    if (!prop) return hipErrorInvalidValue;
    if (deviceId < 0 || deviceId >= device_count) return hipErrorInvalidDevice;
    hoc_CUdevice d;
    hipError_t e = CU(cuDeviceGet(&d, deviceId));
    if (e != hipSuccess) return e;
    memset(prop, 0, sizeof *prop);
    char name[200];
    e = CU(cuDeviceGetName(name, sizeof name, d));
    if (e != hipSuccess) return e;
    snprintf(prop->name, sizeof prop->name, "%s [hip-on-cuda]", name);
    size_t total = 0;
    e = CU(cuDeviceTotalMem_v2(&total, d));
    if (e != hipSuccess) return e;
    prop->totalGlobalMem = total;
    prop->sharedMemPerBlock = (size_t)attribute(HOC_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, d);
    prop->regsPerBlock = attribute(HOC_CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, d);
    prop->warpSize = attribute(HOC_CU_DEVICE_ATTRIBUTE_WARP_SIZE, d);
    prop->memPitch = (size_t)attribute(HOC_CU_DEVICE_ATTRIBUTE_MAX_PITCH, d);
    prop->maxThreadsPerBlock = attribute(HOC_CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, d);
    prop->maxThreadsDim[0] = attribute(HOC_CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, d);
    prop->maxThreadsDim[1] = attribute(HOC_CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, d);
    prop->maxThreadsDim[2] = attribute(HOC_CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, d);
    prop->maxGridSize[0] = attribute(HOC_CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, d);
    prop->maxGridSize[1] = attribute(HOC_CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, d);
    prop->maxGridSize[2] = attribute(HOC_CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, d);
    prop->clockRate = attribute(HOC_CU_DEVICE_ATTRIBUTE_CLOCK_RATE, d);
    prop->clockInstructionRate = prop->clockRate;
    prop->totalConstMem = (size_t)attribute(HOC_CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, d);
    prop->multiProcessorCount = attribute(HOC_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d);
    prop->integrated = attribute(HOC_CU_DEVICE_ATTRIBUTE_INTEGRATED, d);
    prop->canMapHostMemory = attribute(HOC_CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, d);
    prop->computeMode = attribute(HOC_CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, d);
    prop->concurrentKernels = attribute(HOC_CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, d);
    prop->ECCEnabled = attribute(HOC_CU_DEVICE_ATTRIBUTE_ECC_ENABLED, d);
    prop->pciBusID = attribute(HOC_CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, d);
    prop->pciDeviceID = attribute(HOC_CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, d);
    prop->pciDomainID = attribute(HOC_CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, d);
    prop->asyncEngineCount = attribute(HOC_CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, d);
    prop->unifiedAddressing = attribute(HOC_CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, d);
    prop->memoryClockRate = attribute(HOC_CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, d);
    prop->memoryBusWidth = attribute(HOC_CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, d);
    prop->l2CacheSize = attribute(HOC_CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, d);
    prop->maxThreadsPerMultiProcessor = attribute(HOC_CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, d);
    prop->sharedMemPerMultiprocessor =
        (size_t)attribute(HOC_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, d);
    prop->maxSharedMemoryPerMultiProcessor = prop->sharedMemPerMultiprocessor;
    prop->regsPerMultiprocessor = attribute(HOC_CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, d);
    prop->managedMemory = attribute(HOC_CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, d);
    prop->isMultiGpuBoard = attribute(HOC_CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD, d);
    prop->cooperativeLaunch = attribute(HOC_CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, d);
    prop->sharedMemPerBlockOptin = (size_t)attribute(HOC_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, d);
    prop->maxBlocksPerMultiProcessor = attribute(HOC_CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, d);
    snprintf(prop->gcnArchName, sizeof prop->gcnArchName, "%s", gcn_arch_name());
    /* HIP's major.minor on AMD is the gfx version (gfx1100 -> 11.0, gfx942 -> 9.4), not a compute capability */
    const char *digits = prop->gcnArchName + 3;
    size_t n = strcspn(digits, ":");
    if (strncmp(prop->gcnArchName, "gfx", 3) == 0 && n >= 3) {
        char major[8] = {0};
        memcpy(major, digits, n - 2 < sizeof major - 1 ? n - 2 : sizeof major - 1);
        prop->major = atoi(major);
        char minor[2] = {digits[n - 2], 0};
        prop->minor = (int)strtol(minor, NULL, 16);
    }
    return hipSuccess;
}

hipError_t hipDeviceGetPCIBusId(char *pciBusId, int len, int device) {
    ENTER(hipDeviceGetPCIBusId);
    if (!pciBusId || len <= 0) return hipErrorInvalidValue;
    if (device < 0 || device >= device_count) return hipErrorInvalidDevice;
    hoc_CUdevice d;
    hipError_t e = CU(cuDeviceGet(&d, device));
    return e != hipSuccess ? e : CU(cuDeviceGetPCIBusId(pciBusId, len, d));
}

/* ---- peer access ------------------------------------------------------------------------ */

hipError_t hipDeviceCanAccessPeer(int *canAccessPeer, int deviceId, int peerDeviceId) {
    ENTER(hipDeviceCanAccessPeer);
    if (!canAccessPeer) return hipErrorInvalidValue;
    if (deviceId < 0 || deviceId >= device_count || peerDeviceId < 0 || peerDeviceId >= device_count)
        return hipErrorInvalidDevice;
    hoc_CUdevice d, peer;
    hipError_t e = CU(cuDeviceGet(&d, deviceId));
    if (e == hipSuccess) e = CU(cuDeviceGet(&peer, peerDeviceId));
    return e != hipSuccess ? e : CU(cuDeviceCanAccessPeer(canAccessPeer, d, peer));
}

/* HIP names the peer by ordinal; CUDA by context: the peer's primary context, the one hoc_bind makes
 * current for it, so its allocations are the ones mapped. */
hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags) {
    ENTER(hipDeviceEnablePeerAccess);
    if (flags != 0) return hipErrorInvalidValue; /* HIP: reserved, must be 0 */
    /* HIP: a device is not its own peer (CUDA would answer CUDA_ERROR_INVALID_CONTEXT) */
    if (peerDeviceId < 0 || peerDeviceId >= device_count || peerDeviceId == current_device)
        return hipErrorInvalidDevice;
    hoc_CUcontext peer;
    hoc_CUresult r = primary_context(peerDeviceId, &peer);
    return r != HOC_CUDA_SUCCESS ? hip_error(r) : CU(cuCtxEnablePeerAccess(peer, 0));
}

/* ---- memory ----------------------------------------------------------------------------- */

hipError_t hipMalloc(void **ptr, size_t size) {
    ENTER(hipMalloc);
    if (!ptr) return hipErrorInvalidValue;
    if (size == 0) {
        *ptr = NULL;
        return hipSuccess;
    }
    hoc_CUdeviceptr p = 0;
    hipError_t e = CU(cuMemAlloc_v2(&p, size));
    *ptr = e == hipSuccess ? (void *)(uintptr_t)p : NULL;
    return e;
}

hipError_t hipFree(void *ptr) {
    ENTER(hipFree);
    return ptr ? CU(cuMemFree_v2((hoc_CUdeviceptr)(uintptr_t)ptr)) : hipSuccess;
}

hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags) {
    ENTER(hipHostMalloc);
    if (!ptr) return hipErrorInvalidValue;
    unsigned int cu = 0;
    if (flags & hipHostMallocPortable) cu |= HOC_CU_MEMHOSTALLOC_PORTABLE;
    if (flags & hipHostMallocMapped) cu |= HOC_CU_MEMHOSTALLOC_DEVICEMAP;
    if (flags & hipHostMallocWriteCombined) cu |= HOC_CU_MEMHOSTALLOC_WRITECOMBINED;
    return CU(cuMemHostAlloc(ptr, size, cu));
}

hipError_t hipHostFree(void *ptr) {
    ENTER(hipHostFree);
    return ptr ? CU(cuMemFreeHost(ptr)) : hipSuccess;
}

hipError_t hipMemGetInfo(size_t *free, size_t *total) {
    ENTER(hipMemGetInfo);
    return CU(cuMemGetInfo_v2(free, total));
}

#define DPTR(p) ((hoc_CUdeviceptr)(uintptr_t)(p))

hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind, hipStream_t stream) {
    ENTER(hipMemcpyAsync);
    if (sizeBytes == 0) return hipSuccess;
    switch (kind) {
        case hipMemcpyHostToDevice: return CU(cuMemcpyHtoDAsync_v2(DPTR(dst), src, sizeBytes, stream));
        case hipMemcpyDeviceToHost: return CU(cuMemcpyDtoHAsync_v2(dst, DPTR(src), sizeBytes, stream));
        case hipMemcpyDeviceToDevice: return CU(cuMemcpyDtoDAsync_v2(DPTR(dst), DPTR(src), sizeBytes, stream));
        case hipMemcpyHostToHost:
        case hipMemcpyDefault: return CU(cuMemcpyAsync(DPTR(dst), DPTR(src), sizeBytes, stream));
        default: return hipErrorInvalidMemcpyDirection;
    }
}

hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes, hipStream_t stream) {
    ENTER(hipMemsetAsync);
    return CU(cuMemsetD8Async(DPTR(dst), (unsigned char)value, sizeBytes, stream));
}

hipError_t hipDeviceSynchronize(void) {
    ENTER(hipDeviceSynchronize);
    return CU(cuCtxSynchronize());
}

/* ---- streams and events ------------------------------------------------------------------ */

hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags) {
    ENTER(hipStreamCreateWithFlags);
    if (!stream) return hipErrorInvalidValue;
    unsigned int cu = flags & hipStreamNonBlocking ? HOC_CU_STREAM_NON_BLOCKING : HOC_CU_STREAM_DEFAULT;
    return CU(cuStreamCreate((hoc_CUstream *)stream, cu));
}

hipError_t hipStreamDestroy(hipStream_t stream) {
    ENTER(hipStreamDestroy);
    return CU(cuStreamDestroy_v2(stream));
}

hipError_t hipStreamSynchronize(hipStream_t stream) {
    ENTER(hipStreamSynchronize);
    return CU(cuStreamSynchronize(stream));
}

hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags) {
    ENTER(hipStreamWaitEvent);
    if (flags != 0) return hipErrorInvalidValue; /* HIP: must be 0 */
    return CU(cuStreamWaitEvent(stream, event, 0));
}

hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags) {
    ENTER(hipEventCreateWithFlags);
    if (!event) return hipErrorInvalidValue;
    unsigned int cu = 0;
    if (flags & hipEventBlockingSync) cu |= HOC_CU_EVENT_BLOCKING_SYNC;
    if (flags & hipEventDisableTiming) cu |= HOC_CU_EVENT_DISABLE_TIMING;
    if (flags & hipEventInterprocess) cu |= HOC_CU_EVENT_INTERPROCESS;
    return CU(cuEventCreate((hoc_CUevent *)event, cu));
}

hipError_t hipEventDestroy(hipEvent_t event) {
    ENTER(hipEventDestroy);
    return CU(cuEventDestroy_v2(event));
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
    ENTER(hipEventRecord);
    return CU(cuEventRecord(event, stream));
}

hipError_t hipEventSynchronize(hipEvent_t event) {
    ENTER(hipEventSynchronize);
    return CU(cuEventSynchronize(event));
}

hipError_t hipEventQuery(hipEvent_t event) {
    ENTER(hipEventQuery);
    return CU(cuEventQuery(event));
}

hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop) {
    ENTER(hipEventElapsedTime);
    return CU(cuEventElapsedTime_v2(ms, start, stop));
}

/* ---- graphs ------------------------------------------------------------------------------ */

hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode) {
    ENTER(hipStreamBeginCapture);
    int cu;
    switch (mode) {
        case hipStreamCaptureModeGlobal: cu = HOC_CU_STREAM_CAPTURE_MODE_GLOBAL; break;
        case hipStreamCaptureModeThreadLocal: cu = HOC_CU_STREAM_CAPTURE_MODE_THREAD_LOCAL; break;
        case hipStreamCaptureModeRelaxed: cu = HOC_CU_STREAM_CAPTURE_MODE_RELAXED; break;
        default: return hipErrorInvalidValue;
    }
    return CU(cuStreamBeginCapture_v2(stream, cu));
}

hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t *pGraph) {
    ENTER(hipStreamEndCapture);
    return CU(cuStreamEndCapture(stream, (hoc_CUgraph *)pGraph));
}

hipError_t hipGraphInstantiate(hipGraphExec_t *pGraphExec, hipGraph_t graph, hipGraphNode_t *pErrorNode,
                               char *pLogBuffer, size_t bufferSize) {
    ENTER(hipGraphInstantiate);
    if (pErrorNode) *pErrorNode = NULL;
    if (pLogBuffer && bufferSize > 0) pLogBuffer[0] = 0;
    return CU(cuGraphInstantiateWithFlags((hoc_CUgraphExec *)pGraphExec, graph, 0));
}

hipError_t hipGraphLaunch(hipGraphExec_t graphExec, hipStream_t stream) {
    ENTER(hipGraphLaunch);
    return CU(cuGraphLaunch(graphExec, stream));
}

hipError_t hipGraphDestroy(hipGraph_t graph) {
    ENTER(hipGraphDestroy);
    return CU(cuGraphDestroy(graph));
}

hipError_t hipGraphExecDestroy(hipGraphExec_t graphExec) {
    ENTER(hipGraphExecDestroy);
    return CU(cuGraphExecDestroy(graphExec));
}

/* ---- modules: HSACO in, CUBIN loaded ------------------------------------------------------ */

/*
 * The module cache hands over the HSACO it chose by gcnArchName. That AMD code cannot run here:
 * its kernel names (the symbols with a ".kd" kernel descriptor) pick the CUBIN that nvcc built
 * from the same kernel source, found in HIP_ON_CUDA_CUBIN_DIR (the kernels jar's *.sm_XY.cubin,
 * unpacked; XY = this device's compute capability, else the highest of its major below it).
 * Anything that is not an AMDGPU ELF (a CUBIN, PTX, garbage) goes to cuModuleLoadData as it is,
 * so a bad image still fails in the driver with the driver's error.
 */

#define HOC_MAX_KERNELS 512

typedef struct {
    const unsigned char *data;
    size_t size;
} blob;

/* Calls visit(name, arg) for every defined symbol in .symtab (else .dynsym) of a 64-bit ELF. */
static int elf_symbols(blob b, void (*visit)(const char *name, unsigned char info, void *arg), void *arg) {
    if (b.size < sizeof(Elf64_Ehdr)) return -1;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b.data;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64) return -1;
    if (eh->e_shoff == 0 || eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > b.size) return -1;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(b.data + eh->e_shoff);
    const Elf64_Shdr *symtab = NULL;
    for (int i = 0; i < eh->e_shnum; i++)
        if (sh[i].sh_type == SHT_SYMTAB) symtab = &sh[i];
    if (!symtab)
        for (int i = 0; i < eh->e_shnum; i++)
            if (sh[i].sh_type == SHT_DYNSYM) symtab = &sh[i];
    if (!symtab || symtab->sh_link >= eh->e_shnum) return -1;
    const Elf64_Shdr *strtab = &sh[symtab->sh_link];
    if (symtab->sh_offset + symtab->sh_size > b.size || strtab->sh_offset + strtab->sh_size > b.size) return -1;
    const Elf64_Sym *syms = (const Elf64_Sym *)(b.data + symtab->sh_offset);
    size_t count = symtab->sh_size / sizeof(Elf64_Sym);
    const char *names = (const char *)(b.data + strtab->sh_offset);
    for (size_t i = 0; i < count; i++) {
        if (syms[i].st_shndx == SHN_UNDEF || syms[i].st_name >= strtab->sh_size) continue;
        visit(names + syms[i].st_name, syms[i].st_info, arg);
    }
    return 0;
}

typedef struct {
    char *names[HOC_MAX_KERNELS];
    int count;
} name_set;

static void collect_kernel_descriptors(const char *name, unsigned char info, void *arg) {
    (void)info;
    name_set *s = arg;
    size_t n = strlen(name);
    if (n > 3 && strcmp(name + n - 3, ".kd") == 0 && s->count < HOC_MAX_KERNELS) s->names[s->count++] = strndup(name, n - 3);
}

static void collect_functions(const char *name, unsigned char info, void *arg) {
    name_set *s = arg;
    if (ELF64_ST_TYPE(info) == STT_FUNC && s->count < HOC_MAX_KERNELS) s->names[s->count++] = strdup(name);
}

static void free_names(name_set *s) {
    for (int i = 0; i < s->count; i++) free(s->names[i]);
    s->count = 0;
}

static int contains(const name_set *s, const char *name) {
    for (int i = 0; i < s->count; i++)
        if (strcmp(s->names[i], name) == 0) return 1;
    return 0;
}

static int read_file(const char *path, blob *out) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = n > 0 ? malloc((size_t)n) : NULL;
    if (!data || fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        fclose(f);
        return -1;
    }
    fclose(f);
    out->data = data;
    out->size = (size_t)n;
    return 0;
}

/* The cubin in dir whose functions include every kernel of the HSACO, for this device's arch. */
static hipError_t cubin_for(const name_set *kernels, int major, int minor, blob *out, char *chosen,
                            size_t chosen_len) {
    const char *dir = getenv("HIP_ON_CUDA_CUBIN_DIR");
    if (!dir || !*dir) {
        fprintf(stderr, "hip-on-cuda: an AMDGPU code object cannot run on CUDA; set HIP_ON_CUDA_CUBIN_DIR to the "
                        "kernels' cubins\n");
        return hipErrorNoBinaryForGpu;
    }
    hipError_t result = hipErrorNoBinaryForGpu;
    for (int m = minor; m >= 0 && result != hipSuccess; m--) {
        char suffix[32];
        snprintf(suffix, sizeof suffix, ".sm_%d%d.cubin", major, m);
        DIR *dh = opendir(dir);
        if (!dh) return hipErrorFileNotFound;
        struct dirent *ent;
        while (result != hipSuccess && (ent = readdir(dh))) {
            size_t n = strlen(ent->d_name), k = strlen(suffix);
            if (n <= k || strcmp(ent->d_name + n - k, suffix) != 0) continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
            blob b;
            if (read_file(path, &b) != 0) continue;
            name_set functions = {.count = 0};
            int all = elf_symbols(b, collect_functions, &functions) == 0;
            for (int i = 0; all && i < kernels->count; i++) all = contains(&functions, kernels->names[i]);
            free_names(&functions);
            if (all) {
                *out = b;
                snprintf(chosen, chosen_len, "%s", ent->d_name);
                result = hipSuccess;
            } else {
                free((void *)b.data);
            }
        }
        closedir(dh);
    }
    return result;
}

/* The HSACO's kernel names, from its ".kd" kernel descriptors; 0 when image is not an AMDGPU ELF. */
static int hsaco_kernels(const void *image, name_set *kernels) {
    const Elf64_Ehdr *eh = image;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_machine != EM_AMDGPU) return 0;
    /* the image's size: its section headers end it (as the linker lays out HSACO) */
    size_t size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
    if (elf_symbols((blob){image, size}, collect_kernel_descriptors, kernels) != 0) return -1;
    return kernels->count > 0 ? 1 : -1;
}

/*
 * Test hook (no device needed): the file in HIP_ON_CUDA_CUBIN_DIR that hipModuleLoadData would load
 * for this HSACO on a device of compute capability major.minor; hipErrorInvalidImage when image is
 * not a HSACO. HipOnCudaLibraryTests runs it over every HSACO of the kernels jar.
 */
int hipOnCudaCubinFor(const void *image, int major, int minor, char *chosen, size_t chosen_len) {
    name_set kernels = {.count = 0};
    if (!image || hsaco_kernels(image, &kernels) != 1) {
        free_names(&kernels);
        return hipErrorInvalidImage;
    }
    blob cubin;
    hipError_t e = cubin_for(&kernels, major, minor, &cubin, chosen, chosen_len);
    if (e == hipSuccess) free((void *)cubin.data);
    free_names(&kernels);
    return e;
}

hipError_t hipModuleLoadData(hipModule_t *module, const void *image) {
    ENTER(hipModuleLoadData);
    if (!module || !image) return hipErrorInvalidValue;
    name_set kernels = {.count = 0};
    int hsaco = hsaco_kernels(image, &kernels);
    if (hsaco == 0) return CU(cuModuleLoadData((hoc_CUmodule *)module, image)); /* not AMD code: the driver judges */
    if (hsaco < 0) {
        free_names(&kernels);
        return hipErrorInvalidImage;
    }
    hoc_CUdevice d;
    hipError_t e = CU(cuDeviceGet(&d, current_device));
    blob cubin;
    char chosen[256];
    if (e == hipSuccess)
        e = cubin_for(&kernels, attribute(HOC_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d),
                      attribute(HOC_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d), &cubin, chosen, sizeof chosen);
    if (e != hipSuccess) {
        fprintf(stderr, "hip-on-cuda: no cubin in %s has the %d kernels of this HSACO (first: %s)\n",
                getenv("HIP_ON_CUDA_CUBIN_DIR") ? getenv("HIP_ON_CUDA_CUBIN_DIR") : "(unset)", kernels.count,
                kernels.names[0]);
    } else {
        if (getenv("HIP_ON_CUDA_VERBOSE"))
            fprintf(stderr, "hip-on-cuda: HSACO with %d kernels (first: %s) -> %s\n", kernels.count,
                    kernels.names[0], chosen);
        e = CU(cuModuleLoadData((hoc_CUmodule *)module, cubin.data));
        free((void *)cubin.data);
    }
    free_names(&kernels);
    return e;
}

hipError_t hipModuleUnload(hipModule_t module) {
    ENTER(hipModuleUnload);
    return CU(cuModuleUnload(module));
}

hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *kname) {
    ENTER(hipModuleGetFunction);
    return CU(cuModuleGetFunction((hoc_CUfunction *)function, module, kname));
}

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                 unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                 unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream,
                                 void **kernelParams, void **extra) {
    ENTER(hipModuleLaunchKernel);
    /* HIP_LAUNCH_PARAM_* and CU_LAUNCH_PARAM_* differ; the project passes kernelParams only */
    if (extra) return hipErrorNotSupported;
    return CU(cuLaunchKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
                             stream, kernelParams, NULL));
}

/* ---- error names ------------------------------------------------------------------------ */

static const struct {
    hipError_t code;
    const char *name;
    const char *text;
} errors[] = {
    {hipSuccess, "hipSuccess", "no error"},
    {hipErrorInvalidValue, "hipErrorInvalidValue", "invalid argument"},
    {hipErrorOutOfMemory, "hipErrorOutOfMemory", "out of memory"},
    {hipErrorNotInitialized, "hipErrorNotInitialized", "initialization error"},
    {hipErrorDeinitialized, "hipErrorDeinitialized", "driver shutting down"},
    {hipErrorProfilerDisabled, "hipErrorProfilerDisabled", "profiler disabled while using external profiling tool"},
    {hipErrorProfilerNotInitialized, "hipErrorProfilerNotInitialized", "profiler is not initialized"},
    {hipErrorProfilerAlreadyStarted, "hipErrorProfilerAlreadyStarted", "profiler already started"},
    {hipErrorProfilerAlreadyStopped, "hipErrorProfilerAlreadyStopped", "profiler already stopped"},
    {hipErrorInvalidConfiguration, "hipErrorInvalidConfiguration", "invalid configuration argument"},
    {hipErrorInvalidPitchValue, "hipErrorInvalidPitchValue", "invalid pitch argument"},
    {hipErrorInvalidSymbol, "hipErrorInvalidSymbol", "invalid device symbol"},
    {hipErrorInvalidDevicePointer, "hipErrorInvalidDevicePointer", "invalid device pointer"},
    {hipErrorInvalidMemcpyDirection, "hipErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {hipErrorInsufficientDriver, "hipErrorInsufficientDriver", "driver version is insufficient for runtime version"},
    {hipErrorMissingConfiguration, "hipErrorMissingConfiguration", "__global__ function call is not configured"},
    {hipErrorPriorLaunchFailure, "hipErrorPriorLaunchFailure", "unspecified launch failure in prior launch"},
    {hipErrorInvalidDeviceFunction, "hipErrorInvalidDeviceFunction", "invalid device function"},
    {hipErrorNoDevice, "hipErrorNoDevice", "no ROCm-capable device is detected"},
    {hipErrorInvalidDevice, "hipErrorInvalidDevice", "invalid device ordinal"},
    {hipErrorInvalidImage, "hipErrorInvalidImage", "device kernel image is invalid"},
    {hipErrorInvalidContext, "hipErrorInvalidContext", "invalid device context"},
    {hipErrorContextAlreadyCurrent, "hipErrorContextAlreadyCurrent", "context is already current context"},
    {hipErrorMapFailed, "hipErrorMapFailed", "mapping of buffer object failed"},
    {hipErrorUnmapFailed, "hipErrorUnmapFailed", "unmapping of buffer object failed"},
    {hipErrorArrayIsMapped, "hipErrorArrayIsMapped", "array is mapped"},
    {hipErrorAlreadyMapped, "hipErrorAlreadyMapped", "resource already mapped"},
    {hipErrorNoBinaryForGpu, "hipErrorNoBinaryForGpu", "no kernel image is available for execution on the device"},
    {hipErrorAlreadyAcquired, "hipErrorAlreadyAcquired", "resource already acquired"},
    {hipErrorNotMapped, "hipErrorNotMapped", "resource not mapped"},
    {hipErrorNotMappedAsArray, "hipErrorNotMappedAsArray", "resource not mapped as array"},
    {hipErrorNotMappedAsPointer, "hipErrorNotMappedAsPointer", "resource not mapped as pointer"},
    {hipErrorECCNotCorrectable, "hipErrorECCNotCorrectable", "uncorrectable ECC error encountered"},
    {hipErrorUnsupportedLimit, "hipErrorUnsupportedLimit", "limit is not supported on this architecture"},
    {hipErrorContextAlreadyInUse, "hipErrorContextAlreadyInUse", "exclusive-thread device already in use by a different thread"},
    {hipErrorPeerAccessUnsupported, "hipErrorPeerAccessUnsupported", "peer access is not supported between these two devices"},
    {hipErrorInvalidKernelFile, "hipErrorInvalidKernelFile", "a PTX JIT compilation failed"},
    {hipErrorInvalidGraphicsContext, "hipErrorInvalidGraphicsContext", "invalid OpenGL or DirectX context"},
    {hipErrorInvalidSource, "hipErrorInvalidSource", "device kernel image is invalid"},
    {hipErrorFileNotFound, "hipErrorFileNotFound", "file not found"},
    {hipErrorSharedObjectSymbolNotFound, "hipErrorSharedObjectSymbolNotFound", "shared object symbol not found"},
    {hipErrorSharedObjectInitFailed, "hipErrorSharedObjectInitFailed", "shared object initialization failed"},
    {hipErrorOperatingSystem, "hipErrorOperatingSystem", "OS call failed or operation not supported on this OS"},
    {hipErrorInvalidHandle, "hipErrorInvalidHandle", "invalid resource handle"},
    {hipErrorIllegalState, "hipErrorIllegalState", "the operation cannot be performed in the present state"},
    {hipErrorNotFound, "hipErrorNotFound", "named symbol not found"},
    {hipErrorNotReady, "hipErrorNotReady", "device not ready"},
    {hipErrorIllegalAddress, "hipErrorIllegalAddress", "an illegal memory access was encountered"},
    {hipErrorLaunchOutOfResources, "hipErrorLaunchOutOfResources", "too many resources requested for launch"},
    {hipErrorLaunchTimeOut, "hipErrorLaunchTimeOut", "the launch timed out and was terminated"},
    {hipErrorPeerAccessAlreadyEnabled, "hipErrorPeerAccessAlreadyEnabled", "peer access is already enabled"},
    {hipErrorPeerAccessNotEnabled, "hipErrorPeerAccessNotEnabled", "peer access has not been enabled"},
    {hipErrorSetOnActiveProcess, "hipErrorSetOnActiveProcess", "cannot set while device is active in this process"},
    {hipErrorContextIsDestroyed, "hipErrorContextIsDestroyed", "context is destroyed"},
    {hipErrorAssert, "hipErrorAssert", "device-side assert triggered"},
    {hipErrorHostMemoryAlreadyRegistered, "hipErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped"},
    {hipErrorHostMemoryNotRegistered, "hipErrorHostMemoryNotRegistered", "pointer does not correspond to a registered memory region"},
    {hipErrorLaunchFailure, "hipErrorLaunchFailure", "unspecified launch failure"},
    {hipErrorCooperativeLaunchTooLarge, "hipErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"},
    {hipErrorNotSupported, "hipErrorNotSupported", "operation not supported"},
    {hipErrorStreamCaptureUnsupported, "hipErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"},
    {hipErrorStreamCaptureInvalidated, "hipErrorStreamCaptureInvalidated", "operation failed due to a previous error during capture"},
    {hipErrorStreamCaptureMerge, "hipErrorStreamCaptureMerge", "operation would result in a merge of separate capture sequences"},
    {hipErrorStreamCaptureUnmatched, "hipErrorStreamCaptureUnmatched", "capture was not ended in the same stream as it began"},
    {hipErrorStreamCaptureUnjoined, "hipErrorStreamCaptureUnjoined", "capturing stream has unjoined work"},
    {hipErrorStreamCaptureIsolation, "hipErrorStreamCaptureIsolation", "dependency created on uncaptured work in another stream"},
    {hipErrorStreamCaptureImplicit, "hipErrorStreamCaptureImplicit", "operation would make the legacy stream depend on a capturing blocking stream"},
    {hipErrorCapturedEvent, "hipErrorCapturedEvent", "operation not permitted on an event last recorded in a capturing stream"},
    {hipErrorStreamCaptureWrongThread, "hipErrorStreamCaptureWrongThread", "attempt to terminate a thread-local capture sequence from another thread"},
    {hipErrorGraphExecUpdateFailure, "hipErrorGraphExecUpdateFailure", "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"},
    {hipErrorInvalidChannelDescriptor, "hipErrorInvalidChannelDescriptor", "invalid channel descriptor"},
    {hipErrorInvalidTexture, "hipErrorInvalidTexture", "invalid texture"},
    {hipErrorUnknown, "hipErrorUnknown", "unknown error"},
    {hipErrorRuntimeMemory, "hipErrorRuntimeMemory", "runtime memory call returned error"},
    {hipErrorRuntimeOther, "hipErrorRuntimeOther", "runtime call other than memory returned error"},
};

const char *hipGetErrorName(hipError_t hip_error) {
    HOC_COUNT(hipGetErrorName);
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].code == hip_error) return errors[i].name;
    return "hipErrorUnknown";
}

const char *hipGetErrorString(hipError_t hipError) {
    HOC_COUNT(hipGetErrorString);
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].code == hipError) return errors[i].text;
    return "unknown error";
}
