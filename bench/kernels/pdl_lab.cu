// An 8B batch-1 decode step's kernel chain (32 layers: norm, qkv GEMV, rope, attention stand-in,
// quantize, o GEMV, add+norm, gate|up GEMV, SwiGLU, down GEMV; then the output GEMV), captured in one
// graph three ways: plain launches; programmatic dependent launch (every kernel waits for its
// predecessor at its start and lets its successor launch right after); and PDL where each GEMV
// loads its first weights before waiting (weights never depend on the previous kernel). The GEMV is
// ls_mmvq's Q4_0 one-token loop with that split; the small kernels are one-block stand-ins that read
// and write one activation row. Prints ms per step for each way.
#include "step_chain.cuh"
#include <vector>

int main() {
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, SMs %d\n", prop.name, prop.multiProcessorCount);
  struct L { int rows, k; };
  const std::vector<L> shapes = {{6144, 4096}, {4096, 4096}, {28672, 4096}, {4096, 14336}};
  std::vector<Mat> mats;
  for (int l = 0; l < 32; ++l) for (auto& s : shapes) mats.push_back(alloc_mat(s.rows, s.k));
  mats.push_back(alloc_mat(32000, 4096));
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
