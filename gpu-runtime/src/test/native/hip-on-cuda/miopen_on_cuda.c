/*
 * MIOpen -> cuDNN, or a kernel of our own (test code; see hoc.h). Only what the project binds:
 * handles, 4-d tensor descriptors and miopenSoftmaxForward_V2. The softmax goes to cuDNN's
 * cudnnSoftmaxForward when libcudnn loads (HIP_ON_CUDA_SOFTMAX=kernel forces the other way), else to
 * softmax.cu, carried as PTX and loaded with cuModuleLoadData.
 */
#define _GNU_SOURCE
#include "hoc.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hip/hip_runtime_api.h>
/* miopen.h compiles as C with this one shim: it names the struct without its tag */
typedef struct miopenTensorArgument_t miopenTensorArgument_t;
#include <miopen/miopen.h>

#include "softmax_ptx.h"

#include "decl_cudnn.h"

static struct {
#define HOC_MEMBER(name, params) hoc_pfn_##name name;
    HOC_CUDNN_FUNCTIONS(HOC_MEMBER)
#undef HOC_MEMBER
} cudnn;
static int cudnn_loaded;
static pthread_once_t cudnn_once = PTHREAD_ONCE_INIT;

static void load_cudnn(void) {
    const char *mode = getenv("HIP_ON_CUDA_SOFTMAX");
    if (mode && strcmp(mode, "kernel") == 0) return;
    /* cuDNN 9 splits its legacy API over libcudnn (front) and libcudnn_ops: look in both */
    void *h[2] = {hoc_dlopen_first((const char *const[]){"libcudnn.so.9", "libcudnn.so.8", "libcudnn.so", NULL}),
                  hoc_dlopen_first((const char *const[]){"libcudnn_ops.so.9", NULL})};
    if (!h[0] && !h[1]) return;
#define HOC_RESOLVE(name, params)                                                   \
    for (int i = 0; i < 2 && !cudnn.name; i++)                                      \
        if (h[i]) cudnn.name = (hoc_pfn_##name)dlsym(h[i], #name);                  \
    if (!cudnn.name) {                                                              \
        fprintf(stderr, "hip-on-cuda: cuDNN lacks %s, softmax runs our kernel\n", #name); \
        return;                                                                     \
    }
    HOC_CUDNN_FUNCTIONS(HOC_RESOLVE)
#undef HOC_RESOLVE
    cudnn_loaded = 1;
}

/* Our handle and descriptor behind MIOpen's opaque (empty-struct) pointers. */
typedef struct {
    hoc_CUstream stream;
    hoc_cudnnHandle_t cudnn; /* NULL: the kernel path */
    hoc_CUmodule module;
    hoc_CUfunction softmax;
} handle;

typedef struct {
    miopenDataType_t type;
    int n, c, h, w;
    int set;
} tensor;

static miopenStatus_t dnn_enter(void) {
    hoc_CUresult r = hoc_bind();
    if (r == HOC_CUDA_SUCCESS) return miopenStatusSuccess;
    return r == HOC_CUDA_ERROR_OUT_OF_MEMORY ? miopenStatusAllocFailed : miopenStatusNotInitialized;
}

miopenStatus_t miopenCreateWithStream(miopenHandle_t *out, miopenAcceleratorQueue_t stream) {
    HOC_COUNT(miopenCreateWithStream);
    if (!out) return miopenStatusBadParm;
    miopenStatus_t s = dnn_enter();
    if (s != miopenStatusSuccess) return s;
    handle *h = calloc(1, sizeof *h);
    if (!h) return miopenStatusAllocFailed;
    h->stream = stream;
    pthread_once(&cudnn_once, load_cudnn);
    const char *mode = getenv("HIP_ON_CUDA_SOFTMAX");
    if (cudnn_loaded) {
        if (cudnn.cudnnCreate(&h->cudnn) != HOC_CUDNN_STATUS_SUCCESS ||
            cudnn.cudnnSetStream(h->cudnn, stream) != HOC_CUDNN_STATUS_SUCCESS) {
            if (h->cudnn) cudnn.cudnnDestroy(h->cudnn);
            h->cudnn = NULL;
        }
    }
    if (!h->cudnn && mode && strcmp(mode, "cudnn") == 0) {
        free(h);
        return miopenStatusNotInitialized;
    }
    if (!h->cudnn) {
        const struct hoc_cuda *cu = hoc_cuda(NULL);
        if (cu->cuModuleLoadData(&h->module, hoc_softmax_ptx) != HOC_CUDA_SUCCESS ||
            cu->cuModuleGetFunction(&h->softmax, h->module, "hoc_softmax_channel") != HOC_CUDA_SUCCESS) {
            if (h->module) cu->cuModuleUnload(h->module);
            free(h);
            return miopenStatusInternalError;
        }
    }
    if (getenv("HIP_ON_CUDA_VERBOSE")) fprintf(stderr, "hip-on-cuda: MIOpen softmax by %s\n", h->cudnn ? "cuDNN" : "PTX kernel");
    *out = (miopenHandle_t)h;
    return miopenStatusSuccess;
}

miopenStatus_t miopenDestroy(miopenHandle_t mh) {
    HOC_COUNT(miopenDestroy);
    handle *h = (handle *)mh;
    if (!h) return miopenStatusBadParm;
    miopenStatus_t s = dnn_enter();
    if (s != miopenStatusSuccess) return s;
    if (h->cudnn && cudnn.cudnnDestroy(h->cudnn) != HOC_CUDNN_STATUS_SUCCESS) s = miopenStatusInternalError;
    if (h->module && hoc_cuda(NULL)->cuModuleUnload(h->module) != HOC_CUDA_SUCCESS) s = miopenStatusInternalError;
    free(h);
    return s;
}

const char *miopenGetErrorString(miopenStatus_t error) {
    HOC_COUNT(miopenGetErrorString);
    switch (error) {
        case miopenStatusSuccess: return "miopenStatusSuccess";
        case miopenStatusNotInitialized: return "miopenStatusNotInitialized";
        case miopenStatusInvalidValue: return "miopenStatusInvalidValue";
        case miopenStatusBadParm: return "miopenStatusBadParm";
        case miopenStatusAllocFailed: return "miopenStatusAllocFailed";
        case miopenStatusInternalError: return "miopenStatusInternalError";
        case miopenStatusNotImplemented: return "miopenStatusNotImplemented";
        case miopenStatusUnknownError: return "miopenStatusUnknownError";
        case miopenStatusUnsupportedOp: return "miopenStatusUnsupportedOp";
        case miopenStatusGpuOperationsSkipped: return "miopenStatusGpuOperationsSkipped";
        case miopenStatusVersionMismatch: return "miopenStatusVersionMismatch";
        default: return "Unknown Error";
    }
}

miopenStatus_t miopenCreateTensorDescriptor(miopenTensorDescriptor_t *tensorDesc) {
    HOC_COUNT(miopenCreateTensorDescriptor);
    if (!tensorDesc) return miopenStatusBadParm;
    tensor *t = calloc(1, sizeof *t);
    if (!t) return miopenStatusAllocFailed;
    *tensorDesc = (miopenTensorDescriptor_t)t;
    return miopenStatusSuccess;
}

miopenStatus_t miopenSet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc, miopenDataType_t dataType, int n,
                                           int c, int h, int w) {
    HOC_COUNT(miopenSet4dTensorDescriptor);
    tensor *t = (tensor *)tensorDesc;
    if (!t || n <= 0 || c <= 0 || h <= 0 || w <= 0) return miopenStatusBadParm;
    *t = (tensor){.type = dataType, .n = n, .c = c, .h = h, .w = w, .set = 1};
    return miopenStatusSuccess;
}

miopenStatus_t miopenDestroyTensorDescriptor(miopenTensorDescriptor_t tensorDesc) {
    HOC_COUNT(miopenDestroyTensorDescriptor);
    if (!tensorDesc) return miopenStatusBadParm;
    free(tensorDesc);
    return miopenStatusSuccess;
}

static miopenStatus_t cudnn_descriptor(const tensor *t, hoc_cudnnTensorDescriptor_t *out) {
    int type = t->type == miopenFloat ? HOC_CUDNN_DATA_FLOAT : t->type == miopenHalf ? HOC_CUDNN_DATA_HALF : -1;
    if (type < 0) return miopenStatusNotImplemented;
    if (cudnn.cudnnCreateTensorDescriptor(out) != HOC_CUDNN_STATUS_SUCCESS) return miopenStatusAllocFailed;
    if (cudnn.cudnnSetTensor4dDescriptor(*out, HOC_CUDNN_TENSOR_NCHW, type, t->n, t->c, t->h, t->w) !=
        HOC_CUDNN_STATUS_SUCCESS) {
        cudnn.cudnnDestroyTensorDescriptor(*out);
        return miopenStatusBadParm;
    }
    return miopenStatusSuccess;
}

miopenStatus_t miopenSoftmaxForward_V2(miopenHandle_t mh, const void *alpha, const miopenTensorDescriptor_t xDesc,
                                       const void *x, const void *beta, const miopenTensorDescriptor_t yDesc, void *y,
                                       miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode) {
    HOC_COUNT(miopenSoftmaxForward_V2);
    handle *h = (handle *)mh;
    const tensor *xt = (const tensor *)xDesc, *yt = (const tensor *)yDesc;
    if (!h || !alpha || !beta || !xt || !yt || !x || !y || !xt->set || !yt->set) return miopenStatusBadParm;
    if (xt->n != yt->n || xt->c != yt->c || xt->h != yt->h || xt->w != yt->w || xt->type != yt->type)
        return miopenStatusBadParm;
    if (algorithm != MIOPEN_SOFTMAX_FAST && algorithm != MIOPEN_SOFTMAX_ACCURATE && algorithm != MIOPEN_SOFTMAX_LOG)
        return miopenStatusBadParm;
    if (mode != MIOPEN_SOFTMAX_MODE_INSTANCE && mode != MIOPEN_SOFTMAX_MODE_CHANNEL) return miopenStatusBadParm;
    miopenStatus_t s = dnn_enter();
    if (s != miopenStatusSuccess) return s;
    if (h->cudnn) {
        hoc_cudnnTensorDescriptor_t xd, yd;
        if ((s = cudnn_descriptor(xt, &xd)) != miopenStatusSuccess) return s;
        if ((s = cudnn_descriptor(yt, &yd)) != miopenStatusSuccess) {
            cudnn.cudnnDestroyTensorDescriptor(xd);
            return s;
        }
        /* MIOpen's and cuDNN's algorithm and mode enums have the same meaning and values */
        int algo = algorithm == MIOPEN_SOFTMAX_FAST       ? HOC_CUDNN_SOFTMAX_FAST
                   : algorithm == MIOPEN_SOFTMAX_ACCURATE ? HOC_CUDNN_SOFTMAX_ACCURATE
                                                          : HOC_CUDNN_SOFTMAX_LOG;
        int cmode = mode == MIOPEN_SOFTMAX_MODE_INSTANCE ? HOC_CUDNN_SOFTMAX_MODE_INSTANCE : HOC_CUDNN_SOFTMAX_MODE_CHANNEL;
        hoc_cudnnStatus_t r = cudnn.cudnnSoftmaxForward(h->cudnn, algo, cmode, alpha, xd, x, beta, yd, y);
        cudnn.cudnnDestroyTensorDescriptor(xd);
        cudnn.cudnnDestroyTensorDescriptor(yd);
        return r == HOC_CUDNN_STATUS_SUCCESS ? miopenStatusSuccess
               : r == HOC_CUDNN_STATUS_ALLOC_FAILED ? miopenStatusAllocFailed
                                                    : miopenStatusInternalError;
    }
    /* the kernel: float, max-subtracted (FAST is computed the accurate way), no LOG */
    if (xt->type != miopenFloat || algorithm == MIOPEN_SOFTMAX_LOG) return miopenStatusNotImplemented;
    int c = xt->c, hw = xt->h * xt->w, rows = xt->n;
    if (mode == MIOPEN_SOFTMAX_MODE_INSTANCE) { /* over C*H*W for each n */
        c = xt->c * hw;
        hw = 1;
    } else {
        rows = xt->n * hw;
    }
    float a = *(const float *)alpha, b = *(const float *)beta;
    const void *xp = x;
    void *params[] = {(void *)&xp, &y, &c, &hw, &a, &b};
    hoc_CUresult r =
        hoc_cuda(NULL)->cuLaunchKernel(h->softmax, (unsigned)rows, 1, 1, 256, 1, 1, 0, h->stream, params, NULL);
    return r == HOC_CUDA_SUCCESS ? miopenStatusSuccess : miopenStatusInternalError;
}
