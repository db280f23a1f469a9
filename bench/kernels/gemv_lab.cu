// Batch-1 Q4_0 GEMV: the shipped ls_mmvq_q4_0_1 (at both its block sizes) against the same loop over 1,
// 4 or 8 rows of 128 threads per block and warp-per-row variants (1-4 rows per warp, 1-4 weight
// blocks in flight per lane, 64-256 threads) on the 8B and 70B (whole and halved) shapes, weights
// cycled through 1.5 GiB so they come from memory; then a whole 8B step's 129 GEMVs (distinct
// weights per layer) in one graph per variant: the step's floor if nothing else ran. Prints the
// device's plain read bandwidth first. Each launch waits for nothing (no dependent launches):
// gemvchain_lab times the GEMVs as a step chains them.
#include "gemv.hip"
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <string>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

// warp-per-rows: each warp R rows, lanes stride over weight blocks, U blocks loaded before use.
template <int NCOLS, bool Q4, int R, int U, int THREADS>
__global__ void __launch_bounds__(THREADS) mmvq_warp(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd,
                          const int* xs, float* y, int rows, int k, int ystride, int accumulate) {
  const int nb = k / LS_QK;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int row0 = (blockIdx.x * (THREADS / 32) + warp) * R;
  if (row0 >= rows) return;
  float acc[R][NCOLS];
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int c = 0; c < NCOLS; ++c) acc[r][c] = 0.0f;
  for (int b0 = lane; b0 < nb; b0 += 32 * U) {
    ls_u32x4 wq[U][R];
    float dw[U][R];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int b = b0 + 32 * u;
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const int row = row0 + r < rows ? row0 + r : rows - 1;
        const long blk = (long)row * nb + (b < nb ? b : nb - 1);
        wq[u][r] = ls_load16(w + blk * 16);
        dw[u][r] = ls_half_to_float(wd[blk]);
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int b = b0 + 32 * u;
      if (b >= nb) break;
#pragma unroll
      for (int c = 0; c < NCOLS; ++c) {
        const int8_t* xb = xq + (long)c * k + (long)b * LS_QK;
        const ls_u32x4 x0 = ls_load16(xb);
        const ls_u32x4 x1 = ls_load16(xb + 16);
        const float dx = xd[(long)c * nb + b];
        const int sx = xs[(long)c * nb + b];
        const int xi[8] = {(int)x0.x, (int)x0.y, (int)x0.z, (int)x0.w, (int)x1.x, (int)x1.y, (int)x1.z, (int)x1.w};
#pragma unroll
        for (int r = 0; r < R; ++r) {
          const int wi[4] = {(int)wq[u][r].x, (int)wq[u][r].y, (int)wq[u][r].z, (int)wq[u][r].w};
          int sumi = 0;
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            sumi = ls_dp4a(wi[j] & 0x0F0F0F0F, xi[j], sumi);
            sumi = ls_dp4a((wi[j] >> 4) & 0x0F0F0F0F, xi[4 + j], sumi);
          }
          acc[r][c] += dw[u][r] * dx * (float)(sumi - 8 * sx);
        }
      }
    }
  }
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int c = 0; c < NCOLS; ++c) {
      const float v = ls_wave_sum(acc[r][c]);
      if (lane == 0 && row0 + r < rows) {
        float* out = y + (long)c * ystride + row0 + r;
        *out = accumulate ? *out + v : v;
      }
    }
}

// the shipped loop with R weight rows per block instead of ls_mmv_rows(1)
template <int R>
__global__ void __launch_bounds__(LS_MMV_THREADS) mmvq_rows(const uint8_t* w, const uint16_t* wd, const int8_t* xq,
                                                            const float* xd, const int* xs, float* y, int rows, int k,
                                                            int ystride, int accumulate) {
  ls_mmvq<1, true, R>(w, wd, xq, xd, xs, y, rows, k, ystride, accumulate);
}

// half-warp-per-row variant: 16 lanes per row, two rows per warp interleaved (for short rows)
__global__ void readbw(const ls_u32x4* p, long n, unsigned* sink) {
  unsigned s = 0;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    ls_u32x4 v = p[i]; s ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (s == 0x12345678) *sink = s;
}

__global__ void fill(uint32_t* p, long n, uint32_t seed, uint32_t mask, uint32_t base) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    uint32_t h = (uint32_t)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995; h ^= h >> 15;
    p[i] = (h & mask) + base;
  }
}
struct Mat { int rows, k; uint8_t* w; uint16_t* d; };

typedef void (*Kfn)(const uint8_t*, const uint16_t*, const int8_t*, const float*, const int*, float*, int, int, int, int);
struct Variant { const char* name; Kfn fn; int rows_per_block; int threads; };

int main(int argc, char** argv) {
  int ncols = argc > 1 ? atoi(argv[1]) : 1;
  (void)ncols;
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, SMs %d, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
  // read bandwidth reference
  {
    long bytes = 2L << 30; ls_u32x4* p; unsigned* sink; CK(cudaMalloc(&p, bytes)); CK(cudaMalloc(&sink, 4));
    CK(cudaMemset(p, 1, bytes));
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    for (int blocksPerSm : {4, 8, 16}) {
      readbw<<<prop.multiProcessorCount * blocksPerSm, 256>>>(p, bytes / 16, sink);
      cudaEventRecord(a);
      for (int i = 0; i < 10; ++i) readbw<<<prop.multiProcessorCount * blocksPerSm, 256>>>(p, bytes / 16, sink);
      cudaEventRecord(b); CK(cudaEventSynchronize(b)); float ms; cudaEventElapsedTime(&ms, a, b);
      printf("read bandwidth (%d blocks/SM x 256): %.0f GB/s\n", blocksPerSm, 10.0 * bytes / ms / 1e6);
    }
    cudaFree(p);
  }
  std::vector<Variant> vs = {
    {"ls_mmvq (shipped) T64", (Kfn)ls_mmvq_q4_0_1, LS_MMVQ_ONE_ROWS, LS_MMVQ_NARROW_THREADS},
    {"ls_mmvq (shipped) T128", (Kfn)ls_mmvq_q4_0_1, LS_MMVQ_ONE_ROWS, LS_MMVQ_WAVE_THREADS},
    {"ls_mmvq R1", mmvq_rows<1>, 1, 128},
    {"ls_mmvq R4", mmvq_rows<4>, 4, 128},
    {"ls_mmvq R8", mmvq_rows<8>, 8, 128},
    {"warp R1 U1 T128", mmvq_warp<1, true, 1, 1, 128>, 4, 128},
    {"warp R1 U2 T128", mmvq_warp<1, true, 1, 2, 128>, 4, 128},
    {"warp R1 U4 T128", mmvq_warp<1, true, 1, 4, 128>, 4, 128},
    {"warp R2 U1 T128", mmvq_warp<1, true, 2, 1, 128>, 8, 128},
    {"warp R2 U2 T128", mmvq_warp<1, true, 2, 2, 128>, 8, 128},
    {"warp R2 U4 T128", mmvq_warp<1, true, 2, 4, 128>, 8, 128},
    {"warp R4 U2 T128", mmvq_warp<1, true, 4, 2, 128>, 16, 128},
    {"warp R1 U4 T256", mmvq_warp<1, true, 1, 4, 256>, 8, 256},
    {"warp R2 U2 T256", mmvq_warp<1, true, 2, 2, 256>, 16, 256},
    {"warp R1 U4 T64", mmvq_warp<1, true, 1, 4, 64>, 2, 64},
  };
  struct Shape { const char* name; int rows, k; };
  std::vector<Shape> shapes = {{"8b qkv", 6144, 4096}, {"8b o", 4096, 4096}, {"8b gate|up", 28672, 4096},
                               {"8b down", 4096, 14336}, {"8b output", 32000, 4096},
                               {"70b/2 qkv", 5120, 8192}, {"70b/2 o", 8192, 4096}, {"70b/2 gate|up", 28672, 8192},
                               {"70b/2 down", 8192, 14336}, {"70b qkv", 10240, 8192}, {"70b gate|up", 57344, 8192}, {"70b down", 8192, 28672}};
  int8_t* xq; float* xd; int* xs; float* y; float* y0;
  CK(cudaMalloc(&xq, 8 * 65536)); CK(cudaMalloc(&xd, 8 * 65536 / 32 * 4)); CK(cudaMalloc(&xs, 8 * 65536 / 32 * 4));
  CK(cudaMalloc(&y, 8 * 65536 * 4)); CK(cudaMalloc(&y0, 8 * 65536 * 4));
  {
    std::vector<int8_t> h(8 * 65536); for (auto& v : h) v = (int8_t)(rand() % 255 - 127);
    CK(cudaMemcpy(xq, h.data(), h.size(), cudaMemcpyHostToDevice));
    std::vector<float> hd(8 * 2048); for (auto& v : hd) v = 0.01f * (1 + rand() % 100);
    CK(cudaMemcpy(xd, hd.data(), hd.size() * 4, cudaMemcpyHostToDevice));
    std::vector<int> hs(8 * 2048); for (auto& v : hs) v = rand() % 2000 - 1000;
    CK(cudaMemcpy(xs, hs.data(), hs.size() * 4, cudaMemcpyHostToDevice));
  }
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (auto& s : shapes) {
    long nbk = (long)s.rows * (s.k / 32);
    long matBytes = nbk * 18;
    int copies = (int)((1536L << 20) / matBytes) + 1;
    std::vector<Mat> ms(copies);
    for (auto& m : ms) {
      m.rows = s.rows; m.k = s.k;
      CK(cudaMalloc(&m.w, nbk * 16)); CK(cudaMalloc(&m.d, nbk * 2));
      fill<<<1024, 256>>>((uint32_t*)m.w, nbk * 4, rand(), 0xffffffffu, 0);
      fill<<<1024, 256>>>((uint32_t*)m.d, nbk / 2, rand(), 0x0fff0fffu, 0x20002000u);
    }
    printf("%-14s %6d x %6d (%5.1f MB, %d copies):", s.name, s.rows, s.k, matBytes / 1e6, copies);
    std::vector<float> ref(s.rows), got(s.rows);
    for (size_t vi = 0; vi < vs.size(); ++vi) {
      auto& v = vs[vi];
      int grid = (s.rows + v.rows_per_block - 1) / v.rows_per_block;
      v.fn<<<grid, v.threads>>>(ms[0].w, ms[0].d, xq, xd, xs, vi ? y : y0, s.rows, s.k, s.rows, 0);
      CK(cudaDeviceSynchronize());
      if (vi == 0) CK(cudaMemcpy(ref.data(), y0, s.rows * 4, cudaMemcpyDeviceToHost));
      else {
        CK(cudaMemcpy(got.data(), y, s.rows * 4, cudaMemcpyDeviceToHost));
        double err = 0, nrm = 0; for (int i = 0; i < s.rows; ++i) { err += (got[i]-ref[i])*(got[i]-ref[i]); nrm += ref[i]*ref[i]; }
        if (err > 1e-10 * nrm) printf(" [%s MISMATCH %.3g]", v.name, sqrt(err / nrm));
      }
      int reps = copies * std::max(1, 200 / copies);
      cudaEventRecord(a);
      for (int i = 0; i < reps; ++i) { auto& m = ms[i % copies]; v.fn<<<grid, v.threads>>>(m.w, m.d, xq, xd, xs, y, s.rows, s.k, s.rows, 0); }
      cudaEventRecord(b); CK(cudaEventSynchronize(b)); float msec; cudaEventElapsedTime(&msec, a, b);
      double us = msec * 1000 / reps;
      printf("\n   %-20s %7.2f us %6.0f GB/s", v.name, us, matBytes / us / 1e3);
    }
    printf("\n");
    for (auto& m : ms) { cudaFree(m.w); cudaFree(m.d); }
  }
  // A whole 8B step's GEMVs (32 layers, distinct weights, + output) captured in one graph per variant.
  {
    struct L { int rows, k; };
    std::vector<L> layer = {{6144, 4096}, {4096, 4096}, {28672, 4096}, {4096, 14336}};
    std::vector<Mat> all;
    for (int l = 0; l < 32; ++l) for (auto& s : layer) {
      Mat m; m.rows = s.rows; m.k = s.k; long nbk = (long)s.rows * (s.k / 32);
      CK(cudaMalloc(&m.w, nbk * 16)); CK(cudaMalloc(&m.d, nbk * 2));
      fill<<<1024, 256>>>((uint32_t*)m.w, nbk * 4, rand(), 0xffffffffu, 0);
      fill<<<1024, 256>>>((uint32_t*)m.d, nbk / 2, rand(), 0x0fff0fffu, 0x20002000u); all.push_back(m);
    }
    { Mat m; m.rows = 32000; m.k = 4096; long nbk = 32000L * 128; CK(cudaMalloc(&m.w, nbk * 16)); CK(cudaMalloc(&m.d, nbk * 2));
      fill<<<1024, 256>>>((uint32_t*)m.w, nbk * 4, rand(), 0xffffffffu, 0);
      fill<<<1024, 256>>>((uint32_t*)m.d, nbk / 2, rand(), 0x0fff0fffu, 0x20002000u); all.push_back(m); }
    double bytes = 0; for (auto& m : all) bytes += (double)m.rows * (m.k / 32) * 18;
    cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    for (auto& v : vs) {
      cudaGraph_t g; cudaGraphExec_t ge;
      CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
      for (auto& m : all) v.fn<<<(m.rows + v.rows_per_block - 1) / v.rows_per_block, v.threads, 0, st>>>(m.w, m.d, xq, xd, xs, y, m.rows, m.k, m.rows, 0);
      CK(cudaStreamEndCapture(st, &g)); CK(cudaGraphInstantiate(&ge, g, 0));
      for (int i = 0; i < 3; ++i) CK(cudaGraphLaunch(ge, st));
      cudaEventRecord(a, st);
      for (int i = 0; i < 20; ++i) CK(cudaGraphLaunch(ge, st));
      cudaEventRecord(b, st); CK(cudaEventSynchronize(b)); float msec; cudaEventElapsedTime(&msec, a, b);
      printf("8B step GEMVs only, %-20s %.3f ms/step (%.0f GB/s, %.0f tok/s if nothing else ran)\n", v.name, msec / 20, bytes / (msec / 20) / 1e6, 20000.0 / msec);
      cudaGraphExecDestroy(ge); cudaGraphDestroy(g);
    }
    for (auto& m : all) { cudaFree(m.w); cudaFree(m.d); }
  }
  return 0;
}
