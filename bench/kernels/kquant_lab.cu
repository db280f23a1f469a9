// Batch-1 K-quant GEMVs of the kernels' sources on the 8B shapes, weights cycled through 1 GiB so they
// come from memory: us per product, GB/s of weights and a checksum of the outputs. The tree's
// ls_mmvk_*_1 (integer products over Q8_K ints and scales), or with -DMMVK=0 (a tree from before
// 2026-11-28) its ls_mmvf_*_1 (floats over the same activations rounded to Q8_K floats): build one
// binary per tree (KERNELS=dir bash run.sh kquant) to compare them. GpuBackendTests checks the values.
#include "gemv.hip"
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
#ifndef TAG
#define TAG "new"
#endif
__global__ void fill(uint32_t* p, long n, uint32_t seed) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    uint32_t h = (uint32_t)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995; h ^= h >> 15;
    p[i] = h & 0x3B3B3B3Bu;  // every half finite
  }
}
#ifndef MMVK
#define MMVK 1
#endif
typedef void (*Kfn)(const uint8_t*, const uint16_t*, const float*, float*, int, int, int, int);
typedef void (*Ifn)(const uint8_t*, const uint16_t*, const int8_t*, const float*, float*, int, int, int, int);
int main() {
  struct Fmt { const char* name; Kfn fn; int bytes; Ifn ifn; };
#if MMVK
  std::vector<Fmt> fmts = {{"q3_k", nullptr, LS_Q3_K_BYTES, ls_mmvk_q3_k_1}, {"q4_k", nullptr, LS_Q4_K_BYTES, ls_mmvk_q4_k_1},
                           {"q5_k", nullptr, LS_Q5_K_BYTES, ls_mmvk_q5_k_1}, {"q6_k", nullptr, LS_Q6_K_BYTES, ls_mmvk_q6_k_1}};
#else
  std::vector<Fmt> fmts = {{"q3_k", ls_mmvf_q3_k_1, LS_Q3_K_BYTES, nullptr}, {"q4_k", ls_mmvf_q4_k_1, LS_Q4_K_BYTES, nullptr},
                           {"q5_k", ls_mmvf_q5_k_1, LS_Q5_K_BYTES, nullptr}, {"q6_k", ls_mmvf_q6_k_1, LS_Q6_K_BYTES, nullptr}};
#endif
  struct Shape { int rows, k; };
  std::vector<Shape> shapes = {{28672, 4096}, {4096, 14336}, {6144, 4096}, {4096, 4096}};
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  // activations: int8 q and a scale per 256 (Q8_K), and the floats q * d the float path reads
  float *x, *y, *xd; int8_t* xq;
  CK(cudaMalloc(&x, 14336 * 4)); CK(cudaMalloc(&y, 28672 * 4));
  CK(cudaMalloc(&xq, 14336)); CK(cudaMalloc(&xd, 14336 / 256 * 4));
  { std::vector<int8_t> q(14336); std::vector<float> d(14336 / 256), h(14336);
    for (auto& v : q) v = (int8_t)(rand() % 255 - 127);
    for (auto& v : d) v = 1e-3f * (1 + rand() % 100);
    for (int i = 0; i < 14336; ++i) h[i] = d[i / 256] * (float)q[i];
    CK(cudaMemcpy(x, h.data(), h.size() * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(xq, q.data(), q.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(xd, d.data(), d.size() * 4, cudaMemcpyHostToDevice)); }
  for (auto f : fmts) for (auto s : shapes) {
    const long bytes = (long)s.rows * (s.k / 256) * f.bytes;
    const int copies = (int)((1024L << 20) / bytes) + 1;
    std::vector<uint8_t*> ws(copies);
    for (int c = 0; c < copies; ++c) { CK(cudaMalloc(&ws[c], bytes + 16)); fill<<<1024, 256>>>((uint32_t*)ws[c], (bytes + 3) / 4, 7 * c + 1); }
    const int grid = (s.rows + ls_mmv_rows(1) - 1) / ls_mmv_rows(1);
    auto launch = [&](int c) {
      if (f.ifn) f.ifn<<<grid, LS_MMV_THREADS>>>(ws[c], nullptr, xq, xd, y, s.rows, s.k, s.rows, 0);
      else f.fn<<<grid, LS_MMV_THREADS>>>(ws[c], nullptr, x, y, s.rows, s.k, s.rows, 0);
    };
    launch(0); CK(cudaDeviceSynchronize());
    std::vector<float> h(s.rows); CK(cudaMemcpy(h.data(), y, s.rows * 4, cudaMemcpyDeviceToHost));
    double sum = 0; for (float v : h) sum += v;
    const int reps = 50; float ms;
    cudaEventRecord(a); for (int i = 0; i < reps; ++i) launch(i % copies);
    cudaEventRecord(b); CK(cudaEventSynchronize(b)); cudaEventElapsedTime(&ms, a, b);
    const double us = ms * 1000 / reps;
    printf("%s %s %s %5d x %5d: %7.1f us %5.0f GB/s  sum %.6e\n", TAG, f.ifn ? "mmvk" : "mmvf", f.name, s.rows, s.k, us,
           bytes / us / 1e3, sum);
    for (int c = 0; c < copies; ++c) cudaFree(ws[c]);
  }
  return 0;
}
