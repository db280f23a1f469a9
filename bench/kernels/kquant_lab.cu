// Batch-1 K-quant GEMVs (ls_mmvf_q3_k_1, q4_k, q5_k, q6_k) of the kernels' sources on the 8B shapes,
// weights cycled through 1 GiB so they come from memory: us per product and GB/s of weights, and a
// checksum of the outputs (trees whose readers compute the same floats print the same sums).
// Build one binary per tree (KERNELS=dir bash run.sh kquant) to compare them.
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
typedef void (*Kfn)(const uint8_t*, const uint16_t*, const float*, float*, int, int, int, int);
int main() {
  struct Fmt { const char* name; Kfn fn; int bytes; };
  std::vector<Fmt> fmts = {{"q3_k", ls_mmvf_q3_k_1, LS_Q3_K_BYTES}, {"q4_k", ls_mmvf_q4_k_1, LS_Q4_K_BYTES},
                           {"q5_k", ls_mmvf_q5_k_1, LS_Q5_K_BYTES}, {"q6_k", ls_mmvf_q6_k_1, LS_Q6_K_BYTES}};
  struct Shape { int rows, k; };
  std::vector<Shape> shapes = {{28672, 4096}, {4096, 14336}, {6144, 4096}, {4096, 4096}};
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  float *x, *y; CK(cudaMalloc(&x, 14336 * 4)); CK(cudaMalloc(&y, 28672 * 4));
  { std::vector<float> h(14336); for (auto& v : h) v = (rand() % 2001 - 1000) * 1e-3f; CK(cudaMemcpy(x, h.data(), h.size() * 4, cudaMemcpyHostToDevice)); }
  for (auto f : fmts) for (auto s : shapes) {
    const long bytes = (long)s.rows * (s.k / 256) * f.bytes;
    const int copies = (int)((1024L << 20) / bytes) + 1;
    std::vector<uint8_t*> ws(copies);
    for (int c = 0; c < copies; ++c) { CK(cudaMalloc(&ws[c], bytes + 16)); fill<<<1024, 256>>>((uint32_t*)ws[c], (bytes + 3) / 4, 7 * c + 1); }
    const int grid = (s.rows + ls_mmv_rows(1) - 1) / ls_mmv_rows(1);
    f.fn<<<grid, LS_MMV_THREADS>>>(ws[0], nullptr, x, y, s.rows, s.k, s.rows, 0); CK(cudaDeviceSynchronize());
    std::vector<float> h(s.rows); CK(cudaMemcpy(h.data(), y, s.rows * 4, cudaMemcpyDeviceToHost));
    double sum = 0; for (float v : h) sum += v;
    const int reps = 50; float ms;
    cudaEventRecord(a); for (int i = 0; i < reps; ++i) f.fn<<<grid, LS_MMV_THREADS>>>(ws[i % copies], nullptr, x, y, s.rows, s.k, s.rows, 0);
    cudaEventRecord(b); CK(cudaEventSynchronize(b)); cudaEventElapsedTime(&ms, a, b);
    const double us = ms * 1000 / reps;
    printf("%s %s %5d x %5d: %7.1f us %5.0f GB/s  sum %.9e\n", TAG, f.name, s.rows, s.k, us, bytes / us / 1e3, sum);
    for (int c = 0; c < copies; ++c) cudaFree(ws[c]);
  }
  return 0;
}
