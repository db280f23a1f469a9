/*
 * hip-on-cuda: the HIP, rocBLAS, MIOpen and rocm-smi entry points this project binds, translated
 * to the CUDA driver API, cuBLAS, cuDNN and NVML. TEST CODE ONLY: it lets the HIP backend's host
 * code run on an NVIDIA GPU (see docs/amd.md, "HIP by translation"). Nothing of it ships.
 *
 * The ROCm 6.4 headers (src/test/native/rocm-6.4/include) declare every exported function, so the
 * compiler checks each definition against ROCm's prototype and every struct and enum has ROCm's
 * layout and values. The NVIDIA side is declared here by hand (no CUDA headers or libraries are
 * needed to build): each declaration names the header it mirrors, keeps its values exactly, and
 * check_cuda_decls.c asserts them against the real headers wherever those exist.
 *
 * The vendor libraries are dlopen'ed at first use. A missing libcuda is "no device", as HIP
 * answers on a machine without AMD GPUs.
 */
#ifndef HOC_H
#define HOC_H

#include <stddef.h>
#include <stdint.h>

/* ---- CUDA driver API: mirrors cuda.h (CUDA 13.0) ---------------------------------------- */
typedef int hoc_CUresult;          /* enum cudaError_enum */
typedef int hoc_CUdevice;          /* typedef int CUdevice_v1; CUdevice */
typedef unsigned long long hoc_CUdeviceptr; /* CUdeviceptr_v2 */
typedef void *hoc_CUcontext, *hoc_CUmodule, *hoc_CUfunction, *hoc_CUstream, *hoc_CUevent, *hoc_CUgraph,
    *hoc_CUgraphExec;

enum {
    HOC_CUDA_SUCCESS = 0,
    HOC_CUDA_ERROR_INVALID_VALUE = 1,
    HOC_CUDA_ERROR_OUT_OF_MEMORY = 2,
    HOC_CUDA_ERROR_NOT_INITIALIZED = 3,
    HOC_CUDA_ERROR_DEINITIALIZED = 4,
    HOC_CUDA_ERROR_PROFILER_DISABLED = 5,
    HOC_CUDA_ERROR_PROFILER_NOT_INITIALIZED = 6,
    HOC_CUDA_ERROR_PROFILER_ALREADY_STARTED = 7,
    HOC_CUDA_ERROR_PROFILER_ALREADY_STOPPED = 8,
    HOC_CUDA_ERROR_STUB_LIBRARY = 34,
    HOC_CUDA_ERROR_DEVICE_UNAVAILABLE = 46,
    HOC_CUDA_ERROR_NO_DEVICE = 100,
    HOC_CUDA_ERROR_INVALID_DEVICE = 101,
    HOC_CUDA_ERROR_DEVICE_NOT_LICENSED = 102,
    HOC_CUDA_ERROR_INVALID_IMAGE = 200,
    HOC_CUDA_ERROR_INVALID_CONTEXT = 201,
    HOC_CUDA_ERROR_CONTEXT_ALREADY_CURRENT = 202,
    HOC_CUDA_ERROR_MAP_FAILED = 205,
    HOC_CUDA_ERROR_UNMAP_FAILED = 206,
    HOC_CUDA_ERROR_ARRAY_IS_MAPPED = 207,
    HOC_CUDA_ERROR_ALREADY_MAPPED = 208,
    HOC_CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
    HOC_CUDA_ERROR_ALREADY_ACQUIRED = 210,
    HOC_CUDA_ERROR_NOT_MAPPED = 211,
    HOC_CUDA_ERROR_NOT_MAPPED_AS_ARRAY = 212,
    HOC_CUDA_ERROR_NOT_MAPPED_AS_POINTER = 213,
    HOC_CUDA_ERROR_ECC_UNCORRECTABLE = 214,
    HOC_CUDA_ERROR_UNSUPPORTED_LIMIT = 215,
    HOC_CUDA_ERROR_CONTEXT_ALREADY_IN_USE = 216,
    HOC_CUDA_ERROR_PEER_ACCESS_UNSUPPORTED = 217,
    HOC_CUDA_ERROR_INVALID_PTX = 218,
    HOC_CUDA_ERROR_INVALID_GRAPHICS_CONTEXT = 219,
    HOC_CUDA_ERROR_NVLINK_UNCORRECTABLE = 220,
    HOC_CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
    HOC_CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
    HOC_CUDA_ERROR_INVALID_SOURCE = 300,
    HOC_CUDA_ERROR_FILE_NOT_FOUND = 301,
    HOC_CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND = 302,
    HOC_CUDA_ERROR_SHARED_OBJECT_INIT_FAILED = 303,
    HOC_CUDA_ERROR_OPERATING_SYSTEM = 304,
    HOC_CUDA_ERROR_INVALID_HANDLE = 400,
    HOC_CUDA_ERROR_ILLEGAL_STATE = 401,
    HOC_CUDA_ERROR_NOT_FOUND = 500,
    HOC_CUDA_ERROR_NOT_READY = 600,
    HOC_CUDA_ERROR_ILLEGAL_ADDRESS = 700,
    HOC_CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
    HOC_CUDA_ERROR_LAUNCH_TIMEOUT = 702,
    HOC_CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING = 703,
    HOC_CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
    HOC_CUDA_ERROR_PEER_ACCESS_NOT_ENABLED = 705,
    HOC_CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE = 708,
    HOC_CUDA_ERROR_CONTEXT_IS_DESTROYED = 709,
    HOC_CUDA_ERROR_ASSERT = 710,
    HOC_CUDA_ERROR_TOO_MANY_PEERS = 711,
    HOC_CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
    HOC_CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
    HOC_CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
    HOC_CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
    HOC_CUDA_ERROR_MISALIGNED_ADDRESS = 716,
    HOC_CUDA_ERROR_INVALID_ADDRESS_SPACE = 717,
    HOC_CUDA_ERROR_INVALID_PC = 718,
    HOC_CUDA_ERROR_LAUNCH_FAILED = 719,
    HOC_CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720,
    HOC_CUDA_ERROR_NOT_PERMITTED = 800,
    HOC_CUDA_ERROR_NOT_SUPPORTED = 801,
    HOC_CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900,
    HOC_CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901,
    HOC_CUDA_ERROR_STREAM_CAPTURE_MERGE = 902,
    HOC_CUDA_ERROR_STREAM_CAPTURE_UNMATCHED = 903,
    HOC_CUDA_ERROR_STREAM_CAPTURE_UNJOINED = 904,
    HOC_CUDA_ERROR_STREAM_CAPTURE_ISOLATION = 905,
    HOC_CUDA_ERROR_STREAM_CAPTURE_IMPLICIT = 906,
    HOC_CUDA_ERROR_CAPTURED_EVENT = 907,
    HOC_CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD = 908,
    HOC_CUDA_ERROR_TIMEOUT = 909,
    HOC_CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE = 910,
    HOC_CUDA_ERROR_UNKNOWN = 999,
};

/* CUdevice_attribute (cuda.h) */
enum {
    HOC_CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
    HOC_CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
    HOC_CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
    HOC_CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
    HOC_CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
    HOC_CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
    HOC_CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
    HOC_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    HOC_CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY = 9,
    HOC_CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
    HOC_CU_DEVICE_ATTRIBUTE_MAX_PITCH = 11,
    HOC_CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
    HOC_CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
    HOC_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    HOC_CU_DEVICE_ATTRIBUTE_INTEGRATED = 18,
    HOC_CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY = 19,
    HOC_CU_DEVICE_ATTRIBUTE_COMPUTE_MODE = 20,
    HOC_CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS = 31,
    HOC_CU_DEVICE_ATTRIBUTE_ECC_ENABLED = 32,
    HOC_CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
    HOC_CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
    HOC_CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
    HOC_CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
    HOC_CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
    HOC_CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
    HOC_CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT = 40,
    HOC_CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41,
    HOC_CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
    HOC_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    HOC_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    HOC_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
    HOC_CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR = 82,
    HOC_CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
    HOC_CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD = 84,
    HOC_CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH = 95,
    HOC_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
    HOC_CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR = 106,
};

/* flags (cuda.h) */
enum {
    HOC_CU_STREAM_DEFAULT = 0x0,
    HOC_CU_STREAM_NON_BLOCKING = 0x1,
    HOC_CU_EVENT_DEFAULT = 0x0,
    HOC_CU_EVENT_BLOCKING_SYNC = 0x1,
    HOC_CU_EVENT_DISABLE_TIMING = 0x2,
    HOC_CU_EVENT_INTERPROCESS = 0x4,
    HOC_CU_MEMHOSTALLOC_PORTABLE = 0x01,
    HOC_CU_MEMHOSTALLOC_DEVICEMAP = 0x02,
    HOC_CU_MEMHOSTALLOC_WRITECOMBINED = 0x04,
    HOC_CU_STREAM_CAPTURE_MODE_GLOBAL = 0,
    HOC_CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,
    HOC_CU_STREAM_CAPTURE_MODE_RELAXED = 2,
};

/* The driver entry points, by their exported (versioned) names in cuda.h. */
#define HOC_CUDA_FUNCTIONS(F)                                                                               \
    F(cuInit, (unsigned int flags))                                                                         \
    F(cuDriverGetVersion, (int *driverVersion))                                                             \
    F(cuDeviceGetCount, (int *count))                                                                       \
    F(cuDeviceGet, (hoc_CUdevice * device, int ordinal))                                                    \
    F(cuDeviceGetName, (char *name, int len, hoc_CUdevice dev))                                             \
    F(cuDeviceTotalMem_v2, (size_t * bytes, hoc_CUdevice dev))                                              \
    F(cuDeviceGetAttribute, (int *pi, int attrib, hoc_CUdevice dev))                                        \
    F(cuDeviceGetPCIBusId, (char *pciBusId, int len, hoc_CUdevice dev))                                     \
    F(cuDevicePrimaryCtxRetain, (hoc_CUcontext * pctx, hoc_CUdevice dev))                                   \
    F(cuCtxSetCurrent, (hoc_CUcontext ctx))                                                                 \
    F(cuDeviceCanAccessPeer, (int *canAccessPeer, hoc_CUdevice dev, hoc_CUdevice peerDev))                  \
    F(cuCtxEnablePeerAccess, (hoc_CUcontext peerContext, unsigned int Flags))                               \
    F(cuCtxSynchronize, (void))                                                                             \
    F(cuMemGetInfo_v2, (size_t * free, size_t * total))                                                     \
    F(cuMemAlloc_v2, (hoc_CUdeviceptr * dptr, size_t bytesize))                                             \
    F(cuMemFree_v2, (hoc_CUdeviceptr dptr))                                                                 \
    F(cuMemHostAlloc, (void **pp, size_t bytesize, unsigned int Flags))                                     \
    F(cuMemFreeHost, (void *p))                                                                             \
    F(cuMemcpyHtoDAsync_v2, (hoc_CUdeviceptr dst, const void *src, size_t n, hoc_CUstream s))               \
    F(cuMemcpyDtoHAsync_v2, (void *dst, hoc_CUdeviceptr src, size_t n, hoc_CUstream s))                     \
    F(cuMemcpyDtoDAsync_v2, (hoc_CUdeviceptr dst, hoc_CUdeviceptr src, size_t n, hoc_CUstream s))           \
    F(cuMemcpyAsync, (hoc_CUdeviceptr dst, hoc_CUdeviceptr src, size_t n, hoc_CUstream s))                  \
    F(cuMemsetD8Async, (hoc_CUdeviceptr dst, unsigned char uc, size_t n, hoc_CUstream s))                   \
    F(cuStreamCreate, (hoc_CUstream * phStream, unsigned int Flags))                                        \
    F(cuStreamDestroy_v2, (hoc_CUstream hStream))                                                           \
    F(cuStreamSynchronize, (hoc_CUstream hStream))                                                          \
    F(cuStreamWaitEvent, (hoc_CUstream hStream, hoc_CUevent hEvent, unsigned int Flags))                    \
    F(cuEventCreate, (hoc_CUevent * phEvent, unsigned int Flags))                                           \
    F(cuEventDestroy_v2, (hoc_CUevent hEvent))                                                              \
    F(cuEventRecord, (hoc_CUevent hEvent, hoc_CUstream hStream))                                            \
    F(cuEventSynchronize, (hoc_CUevent hEvent))                                                             \
    F(cuEventQuery, (hoc_CUevent hEvent))                                                                   \
    F(cuEventElapsedTime_v2, (float *pMilliseconds, hoc_CUevent hStart, hoc_CUevent hEnd))                  \
    F(cuModuleLoadData, (hoc_CUmodule * module, const void *image))                                         \
    F(cuModuleUnload, (hoc_CUmodule hmod))                                                                  \
    F(cuModuleGetFunction, (hoc_CUfunction * hfunc, hoc_CUmodule hmod, const char *name))                   \
    F(cuLaunchKernel,                                                                                       \
      (hoc_CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,                \
       unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, \
       hoc_CUstream hStream, void **kernelParams, void **extra))                                            \
    F(cuStreamBeginCapture_v2, (hoc_CUstream hStream, int mode))                                            \
    F(cuStreamEndCapture, (hoc_CUstream hStream, hoc_CUgraph * phGraph))                                    \
    F(cuGraphInstantiateWithFlags, (hoc_CUgraphExec * phGraphExec, hoc_CUgraph hGraph, unsigned long long flags)) \
    F(cuGraphLaunch, (hoc_CUgraphExec hGraphExec, hoc_CUstream hStream))                                    \
    F(cuGraphDestroy, (hoc_CUgraph hGraph))                                                                 \
    F(cuGraphExecDestroy, (hoc_CUgraphExec hGraphExec))

#define HOC_DECLARE_PFN(name, params) typedef hoc_CUresult(*hoc_pfn_##name) params;
HOC_CUDA_FUNCTIONS(HOC_DECLARE_PFN)

struct hoc_cuda {
#define HOC_MEMBER(name, params) hoc_pfn_##name name;
    HOC_CUDA_FUNCTIONS(HOC_MEMBER)
#undef HOC_MEMBER
};

/* ---- shared state (hip_on_cuda.c) -------------------------------------------------------- */
/* The library's own helpers stay out of its dynamic symbol table: it exports ROCm's names only
 * (and hipOnCudaWriteTrace). */
#define HOC_INTERNAL __attribute__((visibility("hidden")))

/* The driver, loaded and cuInit'ed once; NULL when libcuda is absent or has no device (*status says why). */
HOC_INTERNAL const struct hoc_cuda *hoc_cuda(hoc_CUresult *status);

/* Makes the current HIP device's primary context current on this thread (HIP has no contexts). */
HOC_INTERNAL hoc_CUresult hoc_bind(void);

/* dlopen the first of a NULL-terminated list of names; NULL if none loads. */
HOC_INTERNAL void *hoc_dlopen_first(const char *const *names);

/* ---- call counters (HIP_ON_CUDA_TRACE) ---------------------------------------------------- */
enum hoc_symbol {
#define X(name, lib) HOC_SYM_##name,
#include "symbols.def"
#undef X
    HOC_SYMBOL_COUNT
};
HOC_INTERNAL void hoc_count(enum hoc_symbol symbol);
#define HOC_COUNT(name) hoc_count(HOC_SYM_##name)

#endif
