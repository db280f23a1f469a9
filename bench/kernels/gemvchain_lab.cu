// Small-batch Q4_0 / Q8_0 GEMVs where they run in the product: in a chain of dependent launches
// (programmatic dependent launch, each kernel waiting for the one before it), weights distinct per
// layer so they come from memory. The product's loop (ls_mmvq: its first weights loaded before the
// wait) at several block shapes, R weight rows x T threads (the product's shipped 2 x 128 first). For
// each 8B shape (qkv, o, gate|up, down, output) a graph of 32 x [a stand-in for the kernel before it
// in a step -> the GEMV] against the same graph without the GEMV: the difference is what the GEMV
// adds to the chain; then the whole step's chain (stand-ins and GEMVs) with each block shape.
#include "step_chain.cuh"
#include <vector>
#include <cmath>

__device__ __forceinline__ unsigned long long gtime() {
  unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t;
}

// a stand-in that waits like the product's kernels, then takes about `ns`
__global__ void spin_op(const float* x, float* out, int n, long ns) {
  pdl_wait(1);
  pdl_go(1);
  const unsigned long long t0 = gtime();
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += x[i];
  while (gtime() - t0 < (unsigned long long)ns) s += 1e-30f;
  if (s == 12345.0f) out[threadIdx.x] = s;
}

template <int NC, bool Q4, int R, int T>
__global__ void __launch_bounds__(T) mmvq_shape(const uint8_t* w, const uint16_t* wd, const int8_t* xq,
                                                const float* xd, const int* xs, float* y, int rows, int k) {
  ls_mmvq<NC, Q4, R, T>(w, wd, xq, xd, xs, y, rows, k, rows, 0);
}

typedef void (*Fn)(const uint8_t*, const uint16_t*, const int8_t*, const float*, const int*, float*, int, int);
struct V { const char* name; Fn fn; int rows_per_block, threads, q8, cols; };
#define VAR(nc, q4, r, t) {#r " rows x " #t, (Fn)mmvq_shape<nc, q4, r, t>, r, t, !(q4), nc}

int main() {
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, SMs %d, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
  const std::vector<V> vs = {
      VAR(1, true, 2, 128), VAR(1, true, 8, 128), VAR(1, true, 4, 64), VAR(1, true, 8, 64), VAR(1, true, 16, 64),
      VAR(1, true, 4, 32), VAR(1, true, 8, 32), VAR(1, true, 16, 32),
      VAR(1, false, 2, 128), VAR(1, false, 4, 128), VAR(1, false, 2, 64), VAR(1, false, 4, 64), VAR(1, false, 8, 64),
      VAR(1, false, 4, 32),
      VAR(2, true, 2, 128), VAR(2, true, 4, 64), VAR(2, true, 8, 64),
      VAR(3, true, 2, 128), VAR(3, true, 4, 64), VAR(3, true, 8, 64),
  };
  for (const V& v : vs) {
    int per = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, (const void*)v.fn, v.threads, 0));
    cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, (const void*)v.fn));
    printf("%s %d token(s) %-14s %3d registers, %2d blocks/SM\n", v.q8 ? "Q8_0" : "Q4_0", v.cols, v.name, fa.numRegs, per);
  }
  int8_t* xq; float *xd, *x, *y, *yref; int* xs;
  CK(cudaMalloc(&xq, 65536)); CK(cudaMalloc(&xd, 65536)); CK(cudaMalloc(&xs, 65536));
  CK(cudaMalloc(&x, 1 << 20)); CK(cudaMalloc(&y, 1 << 20)); CK(cudaMalloc(&yref, 1 << 20));
  {
    std::vector<int8_t> h(65536); for (auto& v : h) v = (int8_t)(rand() % 255 - 127);
    CK(cudaMemcpy(xq, h.data(), h.size(), cudaMemcpyHostToDevice));
    std::vector<float> hd(16384); for (auto& v : hd) v = 0.01f * (1 + rand() % 100);
    CK(cudaMemcpy(xd, hd.data(), 65536, cudaMemcpyHostToDevice));
    std::vector<int> hs(16384); for (auto& v : hs) v = rand() % 2000 - 1000;
    CK(cudaMemcpy(xs, hs.data(), 65536, cudaMemcpyHostToDevice));
  }
  CK(cudaMemset(x, 0, 1 << 20));
  cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  auto cfg = [&](int grid, int threads) {
    cudaLaunchConfig_t c = {}; c.gridDim = grid; c.blockDim = threads; c.stream = st; c.attrs = attr; c.numAttrs = 1;
    return c;
  };
  auto gemv = [&](const V& v, const Mat& m, float* out) {
    cudaLaunchConfig_t c = cfg((m.rows + v.rows_per_block - 1) / v.rows_per_block, v.threads);
    CK(cudaLaunchKernelEx(&c, v.fn, (const uint8_t*)m.w, (const uint16_t*)m.d, (const int8_t*)xq, (const float*)xd,
                          (const int*)xs, out, m.rows, m.k));
  };
  // the kernel before each GEMV in a step: a norm or SwiGLU (~1.5 us, one block), the attention (~5 us, 16 blocks)
  auto before = [&](int attention) {
    cudaLaunchConfig_t c = cfg(attention ? 16 : 1, 128);
    CK(cudaLaunchKernelEx(&c, spin_op, (const float*)x, y + 65536, 1024, attention ? 5000L : 1500L));
  };
  auto timeGraph = [&](auto&& body, int reps) {
    cudaGraph_t g; cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    body();
    CK(cudaStreamEndCapture(st, &g)); CK(cudaGraphInstantiate(&ge, g, 0));
    for (int i = 0; i < 3; ++i) CK(cudaGraphLaunch(ge, st));
    cudaEventRecord(a, st);
    for (int i = 0; i < reps; ++i) CK(cudaGraphLaunch(ge, st));
    cudaEventRecord(b, st); CK(cudaEventSynchronize(b)); float ms; cudaEventElapsedTime(&ms, a, b);
    cudaGraphExecDestroy(ge); cudaGraphDestroy(g);
    return ms / reps;
  };
  struct S { const char* name; int rows, k, attention; };
  const std::vector<S> shapes = {{"qkv", 6144, 4096, 0}, {"o", 4096, 4096, 1}, {"gate|up", 28672, 4096, 0},
                                 {"down", 4096, 14336, 0}, {"output", 32000, 4096, 0}};
  std::vector<float> ref, got;
  for (int q8 = 0; q8 < 2; ++q8) {
    std::vector<std::vector<Mat>> mats(shapes.size());
    for (size_t si = 0; si < shapes.size(); ++si)
      for (int l = 0; l < (si == 4 ? 4 : 32); ++l)
        mats[si].push_back(alloc_mat(shapes[si].rows, shapes[si].k, q8 ? 32 : 16));
    CK(cudaDeviceSynchronize());
    const double block_bytes = q8 ? 34 : 18;
    for (size_t si = 0; si < shapes.size(); ++si) {
      const S& s = shapes[si];
      const int L = (int)mats[si].size();
      const double bytes = (double)s.rows * (s.k / 32) * block_bytes;
      const float alone = timeGraph([&] { for (int l = 0; l < L; ++l) before(s.attention); }, 50);
      printf("%s %-8s %5d x %5d (%.1f MB), its predecessor alone %.2f us\n", q8 ? "Q8_0" : "Q4_0", s.name, s.rows, s.k,
             bytes / 1e6, alone * 1e3 / L);
      const V* base = nullptr;
      for (const V& v : vs) {
        if (v.q8 != q8) continue;
        if (!base || base->cols != v.cols) {  // each token count's first variant is its reference
          base = &v;
          ref.resize((size_t)s.rows * v.cols); got.resize(ref.size());
          gemv(v, mats[si][0], yref);
          CK(cudaStreamSynchronize(st));
          CK(cudaMemcpy(ref.data(), yref, ref.size() * 4, cudaMemcpyDeviceToHost));
        }
        gemv(v, mats[si][0], y);
        CK(cudaStreamSynchronize(st));
        CK(cudaMemcpy(got.data(), y, got.size() * 4, cudaMemcpyDeviceToHost));
        double e = 0, n = 0;
        for (size_t i = 0; i < ref.size(); ++i) { e += (got[i] - ref[i]) * (double)(got[i] - ref[i]); n += ref[i] * (double)ref[i]; }
        const float chain = timeGraph([&] { for (int l = 0; l < L; ++l) { before(s.attention); gemv(v, mats[si][l], y); } }, 50);
        const float solo = timeGraph([&] { for (int l = 0; l < L; ++l) gemv(v, mats[si][l], y); }, 50);
        const double us = (chain - alone) * 1e3 / L;
        printf("   %d token(s) %-14s in the chain %6.2f us (%4.2f TB/s) | alone %6.2f us (%4.2f TB/s), rel. L2 %.1e\n", v.cols,
               v.name, us, bytes / us / 1e6, solo * 1e3 / L, bytes / (solo * 1e3 / L) / 1e6, std::sqrt(e / n));
      }
    }
    // the whole step's chain (norm, qkv, rope, attention, o, norm, gate|up, SwiGLU, down; the head), each shape for every GEMV
    for (int rep = 0; rep < 2; ++rep)
      for (const V& v : vs) {
        if (v.q8 != q8) continue;
        const float ms = timeGraph([&] {
          for (int l = 0; l < 32; ++l) {
            before(0); gemv(v, mats[0][l], y);
            before(0); before(1); gemv(v, mats[1][l], y);
            before(0); gemv(v, mats[2][l], y);
            before(0); gemv(v, mats[3][l], y);
          }
          before(0); gemv(v, mats[4][0], y);
        }, 30);
        printf("%s step chain, %d token(s) %-14s %.3f ms\n", q8 ? "Q8_0" : "Q4_0", v.cols, v.name, ms);
      }
    for (auto& ms : mats) for (auto& m : ms) { cudaFree(m.w); cudaFree(m.d); }
  }
  return 0;
}
