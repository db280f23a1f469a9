// A mixture's routing (ls_route_experts_f32 of the kernels' sources) on its own and in a batch-1
// layer's chain: a graph of 48 layers (qwen3-30b-a3b's), dependent launches as the engine makes
// them, of the router's F32 GEMV (128 x 2048, ls_mmvf_f32_1) alone, then followed by the routing;
// the difference is what the routing adds to a step (with a tree whose routing is a block-wide device
// function, also the GEMV's last block routing in the same launch). Then routing rows of several shapes (tokens x
// experts x used x gating) go to OUT_DIR/route_<TAG>_<case>.bin; a build with TAG other than "old"
// compares its rows with the "old" build's: ids that differ, and the weights' largest relative
// difference (run.sh route: TAG=old KERNELS=<other tree>, then this tree).
#include "elementwise.hip"
#include "gemv.hip"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
#ifndef TAG
#define TAG "new"
#endif

#if LS_ROUTE_THREADS == LS_MMV_THREADS  // a tree with ls_route_token
// the router's GEMV and the routing in one launch: the GEMV's last block to finish routes the token
__global__ void __launch_bounds__(LS_MMV_THREADS) router_and_routing(const float* w, const float* x, float* logits,
                                                                     float* routing, unsigned* arrivals, int experts,
                                                                     int hidden, int used) {
  static_assert(LS_MMV_THREADS == LS_ROUTE_THREADS, "the GEMV's block routes");
  ls_mmvf<1, ls_deq8_f32>((const uint8_t*)w, nullptr, x, logits, experts, hidden, experts, 0);
  __shared__ int last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(arrivals, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  if (threadIdx.x == 0) *arrivals = 0;
  ls_route_token(logits, routing, experts, used, 1.0f, 0);
}
#endif

int main(int argc, char** argv) {
  const char* outdir = argc > 1 ? argv[1] : ".";
  const int layers = 48, experts = 128, used = 8, hidden = 2048;
  cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  auto cfg = [&](dim3 grid, int threads) {
    cudaLaunchConfig_t c = {}; c.gridDim = grid; c.blockDim = threads; c.stream = st; c.attrs = attr; c.numAttrs = 1;
    return c;
  };
  std::vector<float*> router(layers);
  std::vector<float> h((long)experts * hidden);
  for (int l = 0; l < layers; ++l) {
    for (auto& v : h) v = (rand() % 2001 - 1000) / 40000.0f;
    CK(cudaMalloc(&router[l], h.size() * 4)); CK(cudaMemcpy(router[l], h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  }
  const int maxTokens = 512, maxExperts = LS_ROUTE_MAX_EXPERTS;
  float *x, *logits, *routing;
  CK(cudaMalloc(&x, hidden * 4)); CK(cudaMalloc(&logits, (long)maxTokens * maxExperts * 4));
  CK(cudaMalloc(&routing, (long)maxTokens * 2 * LS_ROUTE_MAX_USED * 4));
  { std::vector<float> xv(hidden); for (auto& v : xv) v = (rand() % 2001 - 1000) / 1000.0f;
    CK(cudaMemcpy(x, xv.data(), hidden * 4, cudaMemcpyHostToDevice)); }
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  auto gemv = [&](int l) {
    cudaLaunchConfig_t c = cfg(dim3((experts + LS_MMV_NARROW_ROWS - 1) / LS_MMV_NARROW_ROWS), LS_MMV_THREADS);
    CK(cudaLaunchKernelEx(&c, ls_mmvf_f32_1, (const uint8_t*)router[l], (const uint16_t*)nullptr, (const float*)x,
                          logits, experts, hidden, experts, 0));
  };
  auto route = [&](int tokens, int e, int u, int softmaxOfTopK) {
    cudaLaunchConfig_t c = cfg(dim3(tokens), LS_ROUTE_THREADS);
    CK(cudaLaunchKernelEx(&c, ls_route_experts_f32, (const float*)logits, routing, 0, e, u, 1.0f, softmaxOfTopK));
  };
  auto time = [&](const char* what, auto layer) {
    cudaGraph_t g; cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    for (int l = 0; l < layers; ++l) layer(l);
    CK(cudaStreamEndCapture(st, &g)); CK(cudaGraphInstantiate(&ge, g, 0));
    for (int i = 0; i < 5; ++i) CK(cudaGraphLaunch(ge, st));
    cudaEventRecord(a, st);
    for (int i = 0; i < 50; ++i) CK(cudaGraphLaunch(ge, st));
    cudaEventRecord(b, st); CK(cudaEventSynchronize(b)); float ms; cudaEventElapsedTime(&ms, a, b);
    cudaGraphExecDestroy(ge); cudaGraphDestroy(g);
    const double us = ms * 1000 / 50 / layers;
    printf("%s %-44s %7.2f us per layer\n", TAG, what, us);
    return us;
  };
  for (int rep = 0; rep < 2; ++rep) {
    const double r = time("router GEMV alone", [&](int l) { gemv(l); });
    const double rr = time("router GEMV, then routing (1 token, 128/8)", [&](int l) { gemv(l); route(1, experts, used, 0); });
    time("routing alone (1 token, 128/8)", [&](int) { route(1, experts, used, 0); });
    time("routing alone (64 tokens, 128/8)", [&](int) { route(64, experts, used, 0); });
    printf("%s routing's share of a layer: %.2f us\n", TAG, rr - r);
#if LS_ROUTE_THREADS == LS_MMV_THREADS  // a tree with ls_route_token
    static unsigned* arrivals = nullptr;
    if (!arrivals) { CK(cudaMalloc(&arrivals, 4)); CK(cudaMemset(arrivals, 0, 4)); }
    const double fused = time("router GEMV and routing in one launch", [&](int l) {
      cudaLaunchConfig_t c = cfg(dim3((experts + LS_MMV_NARROW_ROWS - 1) / LS_MMV_NARROW_ROWS), LS_MMV_THREADS);
      CK(cudaLaunchKernelEx(&c, router_and_routing, (const float*)router[l], (const float*)x, logits, routing, arrivals,
                            experts, hidden, used));
    });
    printf("%s routing's share of a layer in one launch: %.2f us\n", TAG, fused - r);
#endif
  }
  // rows of several shapes: random logits with ties (values on a grid of 1/8), one token's row all
  // equal, one with a value that is not a number
  struct Case { int tokens, experts, used, softmaxOfTopK; };
  const std::vector<Case> cases = {{1, 128, 8, 0}, {64, 128, 8, 0}, {512, 128, 8, 0}, {16, 32, 4, 1},
                                   {16, 8, 2, 0}, {16, 60, 4, 0}, {16, 512, 8, 0}, {16, 256, 32, 0}};
  for (const Case& c : cases) {
    std::vector<float> z((long)c.tokens * c.experts);
    for (auto& v : z) v = (rand() % 49 - 24) / 8.0f;
    if (c.tokens > 2) {
      for (int e = 0; e < c.experts; ++e) z[(long)1 * c.experts + e] = 0.5f;
      z[(long)2 * c.experts + 3] = NAN;
    }
    // on the routing's own stream (a blocking copy does not order a non-blocking stream), and the
    // rows cleared first, so that rows the launch did not write cannot pass for its output
    CK(cudaMemcpyAsync(logits, z.data(), z.size() * 4, cudaMemcpyHostToDevice, st));
    CK(cudaMemsetAsync(routing, 0xff, (long)c.tokens * 2 * c.used * 4, st));
    route(c.tokens, c.experts, c.used, c.softmaxOfTopK);
    CK(cudaStreamSynchronize(st));
    std::vector<float> rows((long)c.tokens * 2 * c.used);
    CK(cudaMemcpy(rows.data(), routing, rows.size() * 4, cudaMemcpyDeviceToHost));
    char path[512];
    snprintf(path, sizeof path, "%s/route_%s_%d_%d_%d_%d.bin", outdir, TAG, c.tokens, c.experts, c.used, c.softmaxOfTopK);
    FILE* f = fopen(path, "wb"); fwrite(rows.data(), 4, rows.size(), f); fclose(f);
    snprintf(path, sizeof path, "%s/route_old_%d_%d_%d_%d.bin", outdir, c.tokens, c.experts, c.used, c.softmaxOfTopK);
    std::string verdict = "-";
    if (std::string(TAG) != "old" && (f = fopen(path, "rb"))) {
      std::vector<float> o(rows.size());
      if (fread(o.data(), 4, o.size(), f) == o.size()) {
        int ids = 0; double worst = 0;
        for (int t = 0; t < c.tokens; ++t)
          for (int j = 0; j < c.used; ++j) {
            const long i = (long)t * 2 * c.used;
            ids += rows[i + j] != o[i + j];
            const float w = rows[i + c.used + j], ow = o[i + c.used + j];
            if (w != ow) worst = fmax(worst, fabs((double)w - ow) / fmax(fabs((double)ow), 1e-30));
          }
        char buf[128]; snprintf(buf, sizeof buf, "%d ids differ, weights' largest relative difference %.3g", ids, worst);
        verdict = buf;
      }
      fclose(f);
    }
    printf("%s %3d tokens x %3d experts, top %2d%s: %s (token 0: experts %g, %g, ... weights %g, %g, ...)\n", TAG, c.tokens,
           c.experts, c.used, c.softmaxOfTopK ? " (softmax of top k)" : "", verdict.c_str(), rows[0], rows[1], rows[c.used],
           rows[c.used + 1]);
  }
  return 0;
}
