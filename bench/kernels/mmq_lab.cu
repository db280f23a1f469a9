// The int8 tensor-core products (ls_mmq_q4_0, ls_mmq_q8_0) of the kernels' sources at 16, 32 and 64
// tokens on the 8B and qwen3-30b-a3b expert shapes, weights cycled through 1 GiB: us per product, GB/s
// of weights, and the relative L2 distance to eight passes of the 8-token GEMV (ls_mmvq_*_8). Each
// product runs with the host's split count (`mmq_splits`, as Matmul.mmqSplits chooses it on 132
// multiprocessors) and, for comparison, without splitting and with twice the splits.
#include "mmq.hip"
#include "gemv.hip"
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cmath>
#include <cuda_fp16.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
#ifndef TAG
#define TAG "new"
#endif
__global__ void fill(uint32_t* p, long n, uint32_t seed, uint32_t mask, uint32_t base) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    uint32_t h = (uint32_t)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995; h ^= h >> 15;
    p[i] = (h & mask) + base;
  }
}
// Matmul.mmqSplits: enough blocks for two per multiprocessor, each split at least 4 stages long.
static int mmq_splits(int tiles, int nb, int sms) {
  const int stages = (nb + LS_MMQ_KBLOCKS - 1) / LS_MMQ_KBLOCKS;
  int s = (2 * sms + tiles - 1) / tiles;
  if (s > stages / 4) s = stages / 4;
  return s < 1 ? 1 : s;
}
int main() {
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  float* partials; unsigned* arrivals;
  CK(cudaMalloc(&partials, 64L << 20)); CK(cudaMalloc(&arrivals, 1 << 20)); CK(cudaMemset(arrivals, 0, 1 << 20));
  struct Shape { int rows, k; };
  std::vector<Shape> shapes = {{28672, 4096}, {4096, 14336}, {6144, 4096}, {4096, 4096}, {1536, 2048}, {2048, 768}};
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (bool q4 : {true, false}) for (auto s : shapes) {
    const int nb = s.k / 32; const long nbk = (long)s.rows * nb; const int WB = q4 ? 16 : 32;
    const int copies = (int)((1024L << 20) / (nbk * (WB + 2))) + 1;
    std::vector<uint8_t*> ws(copies); std::vector<uint16_t*> wds(copies);
    for (int c = 0; c < copies; ++c) { CK(cudaMalloc(&ws[c], nbk * WB)); CK(cudaMalloc(&wds[c], nbk * 2));
      fill<<<1024, 256>>>((uint32_t*)ws[c], nbk * WB / 4, 7 * c + 1, q4 ? 0xffffffffu : 0x3f3f3f3fu, 0);
      fill<<<1024, 256>>>((uint32_t*)wds[c], nbk / 2, 11 * c + 3, 0x03ff03ffu, 0x20002000u); }
    const int maxn = 64;
    int8_t* xq; float* xd; int* xsum; float *y, *yref;
    CK(cudaMalloc(&xq, (long)maxn * s.k)); CK(cudaMalloc(&xd, maxn * nb * 4)); CK(cudaMalloc(&xsum, maxn * nb * 4));
    CK(cudaMalloc(&y, (long)maxn * s.rows * 4)); CK(cudaMalloc(&yref, (long)maxn * s.rows * 4));
    fill<<<256, 256>>>((uint32_t*)xq, (long)maxn * s.k / 4, 99, 0x7f7f7f7fu, 0);
    { std::vector<float> h(maxn * nb); for (auto& v : h) v = 0.001f * (1 + rand() % 100); CK(cudaMemcpy(xd, h.data(), h.size() * 4, cudaMemcpyHostToDevice)); }
    { // xs: sums of each block's int8 values
      std::vector<int8_t> h((long)maxn * s.k); CK(cudaMemcpy(h.data(), xq, h.size(), cudaMemcpyDeviceToHost));
      std::vector<int> su(maxn * nb); for (long i = 0; i < (long)maxn * nb; ++i) { int t = 0; for (int j = 0; j < 32; ++j) t += h[i * 32 + j]; su[i] = t; }
      CK(cudaMemcpy(xsum, su.data(), su.size() * 4, cudaMemcpyHostToDevice)); }
    // reference: the 8-column GEMV, 8 passes
    for (int p = 0; p < maxn / 8; ++p) {
      if (q4) ls_mmvq_q4_0_8<<<(s.rows + 3) / 4, 128>>>(ws[0], wds[0], xq + (long)p * 8 * s.k, xd + p * 8 * nb, xsum + p * 8 * nb, yref + (long)p * 8 * s.rows, s.rows, s.k, s.rows, 0);
      else ls_mmvq_q8_0_8<<<(s.rows + 3) / 4, 128>>>(ws[0], wds[0], xq + (long)p * 8 * s.k, xd + p * 8 * nb, xsum + p * 8 * nb, yref + (long)p * 8 * s.rows, s.rows, s.k, s.rows, 0);
    }
    CK(cudaDeviceSynchronize());
    printf("%s %s %5d x %5d:", TAG, q4 ? "q4_0" : "q8_0", s.rows, s.k);
    for (int n : {16, 32, 64}) {
     const int tiles = ((s.rows + LS_MMQ_ROWS - 1) / LS_MMQ_ROWS) * ((n + LS_MMQ_COLS - 1) / LS_MMQ_COLS);
     const int chosen = mmq_splits(tiles, nb, sms);
     for (int splits : {chosen, 1, 2 * chosen}) {
      if (splits != chosen && (splits == 1 ? chosen == 1 : 2 * chosen > nb / LS_MMQ_KBLOCKS)) continue;
      auto launch = [&](int c) {
        dim3 grid((s.rows + LS_MMQ_ROWS - 1) / LS_MMQ_ROWS, (n + LS_MMQ_COLS - 1) / LS_MMQ_COLS, splits);
        if (q4) ls_mmq_q4_0<<<grid, LS_MMQ_THREADS>>>(ws[c], wds[c], xq, xd, y, s.rows, s.k, n, s.rows, 0, partials, arrivals, splits);
        else ls_mmq_q8_0<<<grid, LS_MMQ_THREADS>>>(ws[c], wds[c], xq, xd, y, s.rows, s.k, n, s.rows, 0, partials, arrivals, splits);
      };
      launch(0); CK(cudaDeviceSynchronize());
      std::vector<float> g((long)n * s.rows), r((long)n * s.rows);
      CK(cudaMemcpy(g.data(), y, g.size() * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(r.data(), yref, r.size() * 4, cudaMemcpyDeviceToHost));
      double e = 0, nn = 0; for (size_t i = 0; i < g.size(); ++i) { e += (g[i] - r[i]) * (g[i] - r[i]); nn += r[i] * r[i]; }
      const int reps = 50;
      cudaEventRecord(a); for (int i = 0; i < reps; ++i) launch(i % copies); cudaEventRecord(b); CK(cudaEventSynchronize(b));
      float ms; cudaEventElapsedTime(&ms, a, b); double us = ms * 1000 / reps;
      printf("  n=%d/%d %6.1f us (%4.0f GB/s, err %.1e)", n, splits, us, nbk * (WB + 2) / us / 1e3, sqrt(e / nn));
     }
    }
    printf("\n");
    for (int c = 0; c < copies; ++c) { cudaFree(ws[c]); cudaFree(wds[c]); }
    cudaFree(xq); cudaFree(xd); cudaFree(xsum); cudaFree(y); cudaFree(yref);
  }
  return 0;
}
