// The stand-in kernels of a decode step's chain, shared by the labs that time whole steps
// (pdl_lab, allreduce_lab): ls_mmvq's Q4_0 one-token GEMV loop as it was before its blocks grew to
// LS_MMVQ_ONE_ROWS rows (two rows of 128 threads; gemvchain_lab times the product's kernel), a
// one-block kernel for each norm, rope, attention, quantize and SwiGLU, and random weights. `mode`
// picks how a kernel launches after the one before it: 0 plain; 1 programmatic dependent launch,
// waiting at its start; 2 the same, the GEMV's first weights loaded before the wait (weights never
// depend on the previous kernel).
#pragma once
#include "gemv.hip"
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

__device__ __forceinline__ void pdl_wait(int pdl) { if (pdl) asm volatile("griddepcontrol.wait;" ::: "memory"); }
__device__ __forceinline__ void pdl_go(int pdl) { if (pdl) asm volatile("griddepcontrol.launch_dependents;" :::); }

__global__ void __launch_bounds__(LS_MMV_THREADS) gemv_q4(const uint8_t* w, const uint16_t* wd, const int8_t* xq,
                                                          const float* xd, const int* xs, float* y, int rows, int k,
                                                          int mode) {
  constexpr int R = LS_MMV_NARROW_ROWS;
  const int nb = k / LS_QK;
  const int row0 = blockIdx.x * R;
  float acc[R][1] = {};
  ls_u32x4 wq[R];
  float dw[R];
  auto load = [&](int b) {
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int row = row0 + r < rows ? row0 + r : rows - 1;
      const long blk = (long)row * nb + b;
      dw[r] = ls_half_to_float(wd[blk]);
      wq[r] = ls_load16(w + blk * 16);
    }
  };
  int b = threadIdx.x;
  if (mode == 2 && b < nb) load(b);
  pdl_wait(mode);
  pdl_go(mode);
  for (; b < nb; b += LS_MMV_THREADS) {
    if (mode != 2 || b != (int)threadIdx.x) load(b);
    const int8_t* xb = xq + (long)b * LS_QK;
    const ls_u32x4 x0 = ls_load16(xb);
    const ls_u32x4 x1 = ls_load16(xb + 16);
    const float dx = xd[b];
    const int xi[8] = {(int)x0.x, (int)x0.y, (int)x0.z, (int)x0.w, (int)x1.x, (int)x1.y, (int)x1.z, (int)x1.w};
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int wi[4] = {(int)wq[r].x, (int)wq[r].y, (int)wq[r].z, (int)wq[r].w};
      int sumi = 0;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        sumi = ls_dp4a(wi[j] & 0x0F0F0F0F, xi[j], sumi);
        sumi = ls_dp4a((wi[j] >> 4) & 0x0F0F0F0F, xi[4 + j], sumi);
      }
      acc[r][0] += dw[r] * dx * (float)(sumi - 8 * xs[b]);
    }
  }
  ls_mmv_store<1>(acc, y, row0, rows, rows, 0, nullptr, 1);
}

// a one-row stand-in for the norms, rope, attention, quantize and SwiGLU: reads n floats, a block
// reduction, writes n floats (blocks > 1: the attention's kv heads)
__global__ void small_op(const float* x, float* out, int n, int mode) {
  pdl_wait(mode);
  pdl_go(mode);
  __shared__ float red[32];
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += x[i] * x[i];
  s = ls_wave_sum(s);
  if ((threadIdx.x & 31) == 0) red[threadIdx.x / 32] = s;
  __syncthreads();
  float t = 0.0f;
  for (int i = 0; i < (int)blockDim.x / 32; ++i) t += red[i];
  const float inv = rsqrtf(t / n + 1e-5f);
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i + blockIdx.x * 0] = x[i] * inv;
}

__global__ void fill(uint32_t* p, long n, uint32_t seed, uint32_t mask, uint32_t base) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    uint32_t h = (uint32_t)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995; h ^= h >> 15;
    p[i] = (h & mask) + base;
  }
}

struct Mat { int rows, k; uint8_t* w; uint16_t* d; };

// a rows x k matrix of random quants (quant_bytes a 32-value block: 16 for Q4_0, 32 for Q8_0) and
// scales of moderate size, in the repacked layout
static Mat alloc_mat(int rows, int k, int quant_bytes = 16) {
  Mat m{rows, k}; const long nbk = (long)rows * (k / 32);
  CK(cudaMalloc(&m.w, nbk * quant_bytes)); CK(cudaMalloc(&m.d, nbk * 2));
  fill<<<1024, 256>>>((uint32_t*)m.w, nbk * quant_bytes / 4, rand(), 0xffffffffu, 0);
  fill<<<1024, 256>>>((uint32_t*)m.d, nbk / 2, rand(), 0x0fff0fffu, 0x20002000u);
  return m;
}
