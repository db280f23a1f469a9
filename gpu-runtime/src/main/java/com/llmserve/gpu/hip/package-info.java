/**
 * AMD backend: FFM bindings for HIP, rocBLAS, MIOpen and rocm-smi (one holder class per header,
 * named as jextract would), and the {@link com.llmserve.gpu.spi.Backend} over them.
 */
package com.llmserve.gpu.hip;
