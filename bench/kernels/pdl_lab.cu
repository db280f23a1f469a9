// An 8B batch-1 decode step's kernel chain (32 layers: norm, qkv GEMV, rope, attention stand-in,
// quantize, o GEMV, add+norm, gate|up GEMV, SwiGLU, down GEMV; then the output GEMV), captured in one
// graph three ways: plain launches; programmatic dependent launch (every kernel waits for its
// predecessor at its start and lets its successor launch right after); and PDL where each GEMV
// loads its first weights before waiting (weights never depend on the previous kernel). The GEMV is
// ls_mmvq's Q4_0 one-token loop with that split; the small kernels are one-block stand-ins that read
// and write one activation row. Prints ms per step for each way.
#include "gemv.hip"
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

__device__ __forceinline__ void pdl_wait(int pdl) { if (pdl) asm volatile("griddepcontrol.wait;" ::: "memory"); }
__device__ __forceinline__ void pdl_go(int pdl) { if (pdl) asm volatile("griddepcontrol.launch_dependents;" :::); }

// mode 0: plain; 1: wait then go at the start; 2: first weights loaded, then wait, then go
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

int main() {
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, SMs %d\n", prop.name, prop.multiProcessorCount);
  struct L { int rows, k; };
  const std::vector<L> shapes = {{6144, 4096}, {4096, 4096}, {28672, 4096}, {4096, 14336}};
  std::vector<Mat> mats;
  for (int l = 0; l < 32; ++l) for (auto& s : shapes) {
    Mat m{s.rows, s.k}; long nbk = (long)s.rows * (s.k / 32);
    CK(cudaMalloc(&m.w, nbk * 16)); CK(cudaMalloc(&m.d, nbk * 2));
    fill<<<1024, 256>>>((uint32_t*)m.w, nbk * 4, rand(), 0xffffffffu, 0);
    fill<<<1024, 256>>>((uint32_t*)m.d, nbk / 2, rand(), 0x0fff0fffu, 0x20002000u);
    mats.push_back(m);
  }
  { Mat m{32000, 4096}; long nbk = 32000L * 128; CK(cudaMalloc(&m.w, nbk * 16)); CK(cudaMalloc(&m.d, nbk * 2));
    fill<<<1024, 256>>>((uint32_t*)m.w, nbk * 4, rand(), 0xffffffffu, 0);
    fill<<<1024, 256>>>((uint32_t*)m.d, nbk / 2, rand(), 0x0fff0fffu, 0x20002000u); mats.push_back(m); }
  int8_t* xq; float *xd, *x, *y; int* xs;
  CK(cudaMalloc(&xq, 65536)); CK(cudaMalloc(&xd, 65536)); CK(cudaMalloc(&xs, 65536));
  CK(cudaMalloc(&x, 1 << 20)); CK(cudaMalloc(&y, 1 << 20));
  CK(cudaMemset(xq, 1, 65536)); CK(cudaMemset(xd, 0, 65536)); CK(cudaMemset(xs, 0, 65536)); CK(cudaMemset(x, 0, 1 << 20));
  CK(cudaDeviceSynchronize());
  cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  const char* names[] = {"plain launches", "PDL, wait at start", "PDL, GEMV weights before the wait"};
  for (int rep = 0; rep < 2; ++rep)
  for (int mode = 0; mode < 3; ++mode) {
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    auto cfg = [&](int grid, int threads) {
      cudaLaunchConfig_t c = {}; c.gridDim = grid; c.blockDim = threads; c.stream = st;
      c.attrs = attr; c.numAttrs = mode > 0 ? 1 : 0; return c;
    };
    auto small = [&](int blocks, int n) { cudaLaunchConfig_t c = cfg(blocks, 256); CK(cudaLaunchKernelEx(&c, small_op, (const float*)x, y, n, mode)); };
    auto gemv = [&](const Mat& m) {
      cudaLaunchConfig_t c = cfg((m.rows + LS_MMV_NARROW_ROWS - 1) / LS_MMV_NARROW_ROWS, LS_MMV_THREADS);
      CK(cudaLaunchKernelEx(&c, gemv_q4, (const uint8_t*)m.w, (const uint16_t*)m.d, (const int8_t*)xq, (const float*)xd,
                            (const int*)xs, y, m.rows, m.k, mode));
    };
    cudaGraph_t g; cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    for (int l = 0; l < 32; ++l) {
      small(1, 4096);      // add + rms norm + q8
      gemv(mats[4 * l]);   // qkv
      small(1, 6144);      // rope + cache write
      small(8, 1024);      // attention (one pass, 8 kv heads)
      small(1, 4096);      // quantize
      gemv(mats[4 * l + 1]);
      small(1, 4096);      // add + rms norm + q8
      gemv(mats[4 * l + 2]);
      small(1, 14336);     // swiglu + q8
      gemv(mats[4 * l + 3]);
    }
    small(1, 4096);
    gemv(mats.back());
    CK(cudaStreamEndCapture(st, &g)); CK(cudaGraphInstantiate(&ge, g, 0));
    for (int i = 0; i < 5; ++i) CK(cudaGraphLaunch(ge, st));
    cudaEventRecord(a, st);
    for (int i = 0; i < 50; ++i) CK(cudaGraphLaunch(ge, st));
    cudaEventRecord(b, st); CK(cudaEventSynchronize(b)); float ms; cudaEventElapsedTime(&ms, a, b);
    printf("8B step chain (%d kernels), %-36s %.3f ms/step\n", 32 * 10 + 2, names[mode], ms / 50);
    cudaGraphExecDestroy(ge); cudaGraphDestroy(g);
  }
  return 0;
}
