// A mixture's routing (ls_route_experts_f32 of the kernels' sources) on its own and in a batch-1
// layer's chain: a graph of 48 layers (qwen3-30b-a3b's), dependent launches as the engine makes
// them, of the router's F32 GEMV (128 x 2048, ls_mmvf_f32_1) alone, then followed by the routing;
// the difference is what the routing adds to a step (with a tree whose routing is a block-wide device
// function, also the GEMV's last block routing in the same launch). Then routing rows of several
// shapes (tokens x experts x used x gating) against a reference computed here: ids that differ (none
// should), and the weights' largest relative difference. Two trees: TAG=old KERNELS=<other tree>
// bash run.sh route, then bash run.sh route.
#include "elementwise.hip"
#include "gemv.hip"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
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

// the gate|up experts' product (ls_mmvq_w32, Q4_0) routing its token itself: every block chooses
// the experts (ls_route_choose), block (0, 0) writes the routing row for the kernels after it
__global__ void __launch_bounds__(LS_MMV_THREADS) experts_routing_themselves(
    const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd, const int* xs, float* y, int rows, int k,
    int ystride, const float* logits, float* routing, int experts, int used) {
  __shared__ int slot_id[LS_ROUTE_MAX_USED];
  __shared__ float slot_value[LS_ROUTE_MAX_USED];
  ls_grid_wait();
  ls_route_choose(logits, experts, used, 0, slot_id, slot_value);
  if (blockIdx.x == 0 && blockIdx.y == 0 && (int)threadIdx.x < used) {
    routing[threadIdx.x] = (float)slot_id[threadIdx.x];
    routing[used + threadIdx.x] = ls_route_weight(slot_id, slot_value, threadIdx.x, used, 1.0f, 0);
  }
  for (int j = blockIdx.y; j < used; j += gridDim.y) {
    if (slot_id[j] < 0) continue;
    const int map[2] = {0, j};
    ls_mmvq_w32<true>(w, wd, xq, xd, xs, y, rows, k, ystride, (long)slot_id[j] * rows, map);
    __syncthreads();
  }
}

__global__ void fill_u32(uint32_t* p, long n, uint32_t seed, uint32_t mask, uint32_t base) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    uint32_t h = (uint32_t)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995; h ^= h >> 15;
    p[i] = (h & mask) + base;
  }
}
#endif

int main() {
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
    // the chain on to the gate|up experts' product (qwen3-30b-a3b: 8 of 128 experts of 1536 x 2048,
    // Q4_0, a stack per layer): with the routing kernel between, or the product routing itself
    static std::vector<uint8_t*> stackQ(layers);
    static std::vector<uint16_t*> stackD(layers);
    static int8_t* xq = nullptr;
    static float *xd = nullptr, *ey = nullptr;
    static int* xs = nullptr;
    const int eRows = 1536, nb = hidden / 32;
    if (!xq) {
      for (int l = 0; l < layers; ++l) {
        const long blocks = (long)experts * eRows * nb;
        CK(cudaMalloc(&stackQ[l], blocks * 16)); CK(cudaMalloc(&stackD[l], blocks * 2));
        fill_u32<<<1024, 256>>>((uint32_t*)stackQ[l], blocks * 4, 7 * l + 1, 0xffffffffu, 0);
        fill_u32<<<1024, 256>>>((uint32_t*)stackD[l], blocks / 2, 7 * l + 3, 0x0fff0fffu, 0x20002000u);
      }
      CK(cudaMalloc(&xq, hidden)); CK(cudaMalloc(&xd, nb * 4)); CK(cudaMalloc(&xs, nb * 4));
      CK(cudaMalloc(&ey, (long)used * eRows * 4));
      CK(cudaMemset(xq, 3, hidden)); CK(cudaMemset(xd, 0x3c, nb * 4)); CK(cudaMemset(xs, 0, nb * 4));
      CK(cudaDeviceSynchronize());
    }
    const dim3 eGrid((eRows + LS_MMV_W32_ROWS - 1) / LS_MMV_W32_ROWS, used);
    auto experts_after_routing = [&](int l) {
      cudaLaunchConfig_t c = cfg(eGrid, LS_MMV_THREADS);
      CK(cudaLaunchKernelEx(&c, ls_mmvq_ex_q4_0_1_w32, (const uint8_t*)stackQ[l], (const uint16_t*)stackD[l],
                            (const int8_t*)xq, (const float*)xd, (const int*)xs, ey, (const int*)nullptr, 0LL, eRows,
                            hidden, eRows, (int)used, (const float*)routing, (int)used, 0, 0));
    };
    const double withKernel = time("router, routing, gate|up experts", [&](int l) {
      gemv(l);
      route(1, experts, used, 0);
      experts_after_routing(l);
    });
    const double themselves = time("router, gate|up experts routing themselves", [&](int l) {
      gemv(l);
      cudaLaunchConfig_t c = cfg(eGrid, LS_MMV_THREADS);
      CK(cudaLaunchKernelEx(&c, experts_routing_themselves, (const uint8_t*)stackQ[l], (const uint16_t*)stackD[l],
                            (const int8_t*)xq, (const float*)xd, (const int*)xs, ey, eRows, hidden, eRows,
                            (const float*)logits, routing, experts, used));
    });
    printf("%s the experts' product routing itself saves %.2f us a layer\n", TAG, withKernel - themselves);
    // the same products either way: layer 0's outputs compared bit for bit
    std::vector<float> a((long)used * eRows), b2(a.size());
    gemv(0); route(1, experts, used, 0); experts_after_routing(0);
    CK(cudaStreamSynchronize(st)); CK(cudaMemcpy(a.data(), ey, a.size() * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemset(ey, 0, a.size() * 4)); CK(cudaDeviceSynchronize());
    gemv(0);
    { cudaLaunchConfig_t c = cfg(eGrid, LS_MMV_THREADS);
      CK(cudaLaunchKernelEx(&c, experts_routing_themselves, (const uint8_t*)stackQ[0], (const uint16_t*)stackD[0],
                            (const int8_t*)xq, (const float*)xd, (const int*)xs, ey, eRows, hidden, eRows,
                            (const float*)logits, routing, experts, used)); }
    CK(cudaStreamSynchronize(st)); CK(cudaMemcpy(b2.data(), ey, b2.size() * 4, cudaMemcpyDeviceToHost));
    long differ = 0;
    for (size_t i = 0; i < a.size(); ++i) differ += a[i] != b2[i];
    std::vector<float> row(2 * used);
    CK(cudaMemcpy(row.data(), routing, row.size() * 4, cudaMemcpyDeviceToHost));
    printf("%s outputs that differ between the two: %ld of %zu (layer 0's experts %g %g %g ..., outputs %g %g ...)\n", TAG,
           differ, a.size(), row[0], row[1], row[2], a[0], a[(long)eRows]);
#endif
  }
  // rows of several shapes against a reference on the host: random logits with ties (values on a
  // grid of 1/8), one token's row all equal, one with a value that is not a number; the ids must be
  // the reference's, the weights within float rounding of its sums
  struct Case { int tokens, experts, used, softmaxOfTopK; };
  const std::vector<Case> cases = {{1, 128, 8, 0}, {64, 128, 8, 0}, {512, 128, 8, 0}, {16, 32, 4, 1},
                                   {16, 8, 2, 0}, {16, 60, 4, 0}, {16, 512, 8, 0}, {16, 256, 32, 0}};
  CK(cudaDeviceSynchronize());
  for (const Case& c : cases) {
    std::vector<float> z((long)c.tokens * c.experts);
    for (auto& v : z) v = (float)(rand() % 49 - 24) / 8.0f;
    if (c.tokens > 2) {
      for (int e = 0; e < c.experts; ++e) z[(long)1 * c.experts + e] = 0.5f;
      z[(long)2 * c.experts + 3] = NAN;
    }
    CK(cudaMemcpy(logits, z.data(), z.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(routing, 0xff, (long)c.tokens * 2 * c.used * 4));
    CK(cudaDeviceSynchronize());
    ls_route_experts_f32<<<c.tokens, LS_ROUTE_THREADS>>>(logits, routing, 0, c.experts, c.used, 1.0f, c.softmaxOfTopK);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> rows((long)c.tokens * 2 * c.used), back(z.size());
    CK(cudaMemcpy(rows.data(), routing, rows.size() * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(back.data(), logits, back.size() * 4, cudaMemcpyDeviceToHost));
    int ids = 0;
    double worst = 0;
    for (int t = 0; t < c.tokens; ++t) {
      // the reference: probabilities (or the logits), the best first, the lower id among equals
      const float* zt = z.data() + (long)t * c.experts;
      std::vector<float> p(zt, zt + c.experts);
      if (!c.softmaxOfTopK) {
        float m = -INFINITY, sum = 0;
        for (float v : p) m = fmaxf(m, v);
        for (float& v : p) { v = expf(v - m); sum += v; }
        for (float& v : p) v /= sum;
      }
      std::vector<int> order;
      for (int e = 0; e < c.experts; ++e) if (p[e] == p[e]) order.push_back(e);
      std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return p[i] > p[j]; });
      double chosen = 0, m = -INFINITY, esum = 0;
      for (int j = 0; j < c.used && j < (int)order.size(); ++j) { chosen += p[order[j]]; m = fmax(m, p[order[j]]); }
      for (int j = 0; j < c.used && j < (int)order.size(); ++j) esum += exp(p[order[j]] - m);
      const float* row = rows.data() + (long)t * 2 * c.used;
      for (int j = 0; j < c.used; ++j) {
        const int id = j < (int)order.size() ? order[j] : -1;
        ids += (int)row[j] != id;
        if (id < 0) continue;
        const double w = c.softmaxOfTopK ? exp(p[id] - m) / esum : p[id] / fmax(chosen, 6.103515625e-5);
        worst = fmax(worst, fabs(row[c.used + j] - w) / fabs(w));
      }
    }
    printf("%s %3d tokens x %3d experts, top %2d%s: %d ids differ from the host's, weights within %.2g "
           "(token 0: experts %g, %g, ... weights %g, %g, ...; logit 0 read back %g of %g)\n", TAG, c.tokens, c.experts,
           c.used, c.softmaxOfTopK ? " (softmax of top k)" : "", ids, worst, rows[0], rows[1], rows[c.used],
           rows[c.used + 1], back[0], z[0]);
  }
  return 0;
}
