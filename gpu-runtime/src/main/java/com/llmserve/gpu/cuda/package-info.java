/**
 * NVIDIA backend: FFM bindings for the CUDA driver API, cuBLAS and NVML (one holder class per
 * header, named as jextract would), and the {@link com.llmserve.gpu.spi.Backend} over them.
 */
package com.llmserve.gpu.cuda;
