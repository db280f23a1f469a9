/* cuDNN: declared by hand for hip-on-cuda (test code; see hoc.h), asserted by check_cuda_decls.c. */
#ifndef HOC_DECL_CUDNN_H
#define HOC_DECL_CUDNN_H

#include "hoc.h"

/* ---- cuDNN: mirrors cudnn_graph.h / cudnn_ops.h (cuDNN 9) --------------------------------- */
typedef int hoc_cudnnStatus_t;
typedef void *hoc_cudnnHandle_t, *hoc_cudnnTensorDescriptor_t;
enum { HOC_CUDNN_STATUS_SUCCESS = 0, HOC_CUDNN_STATUS_ALLOC_FAILED = 2000 };
enum { HOC_CUDNN_TENSOR_NCHW = 0 };                                        /* cudnnTensorFormat_t */
enum { HOC_CUDNN_DATA_FLOAT = 0, HOC_CUDNN_DATA_HALF = 2 };               /* cudnnDataType_t */
enum { HOC_CUDNN_SOFTMAX_FAST = 0, HOC_CUDNN_SOFTMAX_ACCURATE = 1, HOC_CUDNN_SOFTMAX_LOG = 2 };
enum { HOC_CUDNN_SOFTMAX_MODE_INSTANCE = 0, HOC_CUDNN_SOFTMAX_MODE_CHANNEL = 1 };

#define HOC_CUDNN_FUNCTIONS(F)                                                                                   \
    F(cudnnCreate, (hoc_cudnnHandle_t * handle))                                                                 \
    F(cudnnDestroy, (hoc_cudnnHandle_t handle))                                                                  \
    F(cudnnSetStream, (hoc_cudnnHandle_t handle, hoc_CUstream streamId))                                         \
    F(cudnnCreateTensorDescriptor, (hoc_cudnnTensorDescriptor_t * tensorDesc))                                   \
    F(cudnnSetTensor4dDescriptor,                                                                                \
      (hoc_cudnnTensorDescriptor_t tensorDesc, int format, int dataType, int n, int c, int h, int w))            \
    F(cudnnDestroyTensorDescriptor, (hoc_cudnnTensorDescriptor_t tensorDesc))                                    \
    F(cudnnSoftmaxForward, (hoc_cudnnHandle_t handle, int algo, int mode, const void *alpha,                     \
                            const hoc_cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,             \
                            const hoc_cudnnTensorDescriptor_t yDesc, void *y))

#define HOC_DECLARE_CUDNN(name, params) typedef hoc_cudnnStatus_t(*hoc_pfn_##name) params;
HOC_CUDNN_FUNCTIONS(HOC_DECLARE_CUDNN)

#endif
