// What the half tensor-core labs (mmh_lab.cu, mmhk_lab.cu) share: error checks, random half
// activations, a format's half copy (what the BLAS path reads), the host's split rule, timing over
// launches cycled through copies of the weights, and the relative L2 distance of two outputs.
#pragma once
#include "mmq.hip"
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cmath>
#include <cublas_v2.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

// half activations in (-1, 1)
__global__ void fill_half(uint16_t* p, long n, uint32_t seed) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    uint32_t h = (uint32_t)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995; h ^= h >> 15;
    p[i] = ls_float_to_half(((int)(h % 2001) - 1000) / 1000.0f);
  }
}

// The device's half copy of a weight: the format's eight-value reader rounded to half, as the
// ls_dequant_*_f16 kernels write it.
template <void (*DEQ8)(const uint8_t*, const uint16_t*, long, int, int, float*)>
__global__ void half_copy(const uint8_t* w, const uint16_t* wd, uint16_t* out, long rows, int k) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < rows * k / 8; i += (long)gridDim.x * blockDim.x) {
    const long row = i / (k / 8); const int e0 = (int)(i % (k / 8)) * 8; float v[8];
    DEQ8(w, wd, row, k, e0, v);
    for (int j = 0; j < 8; ++j) out[row * k + e0 + j] = ls_float_to_half(v[j]);
  }
}

// Matmul.mmhSplits
static int mmh_splits(int tiles, int nb, int sms) {
  const int groups = (nb + LS_MMH_KBLOCKS - 1) / LS_MMH_KBLOCKS;
  int s = 2 * sms / tiles;
  if (s > groups / 4) s = groups / 4;
  return s < 1 ? 1 : s;
}

// us a launch over 50 launches (after one untimed), launch(c) taking the weights' copy c.
struct LabTimer {
  cudaEvent_t a, b;
  LabTimer() { cudaEventCreate(&a); cudaEventCreate(&b); }
  template <class Launch>
  double us(Launch&& launch) {
    const int reps = 50;
    launch(0); CK(cudaDeviceSynchronize());
    cudaEventRecord(a); for (int i = 0; i < reps; ++i) launch(i + 1); cudaEventRecord(b); CK(cudaEventSynchronize(b));
    float ms; cudaEventElapsedTime(&ms, a, b); return ms * 1000 / reps;
  }
};

// ||got - ref|| / ||ref|| over n floats of two device buffers.
static double rel_l2(const float* got, const float* ref, long n) {
  std::vector<float> g(n), r(n);
  CK(cudaMemcpy(g.data(), got, n * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(r.data(), ref, n * 4, cudaMemcpyDeviceToHost));
  double e = 0, nn = 0;
  for (long i = 0; i < n; ++i) { e += (g[i] - r[i]) * (g[i] - r[i]); nn += (double)r[i] * r[i]; }
  return sqrt(e / nn);
}
