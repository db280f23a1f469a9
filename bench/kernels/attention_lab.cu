// Decode attention of the kernels' sources (ls_attention_split_d128, or MMA=1 ls_attention_dmma_d128) on an 8B shape (32/8 heads x 128, 16-position cache blocks in a shuffled order;
// KVH=4 for qwen3-30b-a3b's 32/4, PARTS=n for n blocks per kv head in the split kernel),
// a graph of 32 layers with their own caches per case (rows x context x the grid's split count):
// us per layer and GB/s of KV read. Each case's output goes to OUT_DIR/att_<TAG>_<rows>_<ctx>_<splits>.bin;
// SWEEP=1: split counts 1-32 against contexts 16-8192 instead of the fixed cases; MANY_ROWS=1: 4 to 64
// rows; CASE=rows,ctx,splits: one case.
// a build with TAG other than "old" prints its relative L2 distance to the "old" build's files, so two
// source trees compare by building this against each (run.sh attention: TAG=old KERNELS=<other tree>).
#include "attention.hip"
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <string>
#include <cmath>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
#ifndef TAG
#define TAG "new"
#endif
__global__ void fillh(uint16_t* p, long n, uint32_t seed) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    uint32_t h = (uint32_t)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995; h ^= h >> 15;
    p[i] = __half_as_ushort(__float2half(((h & 0xffff) / 65536.0f - 0.5f) * 2.0f));
  }
}
int main(int argc, char** argv) {
  const char* outdir = argc > 1 ? argv[1] : ".";
  // KVH=4: qwen3-30b-a3b's 32/4 heads; PARTS: the split kernel's blocks per kv head (head_parts)
  const int kvh = getenv("KVH") ? atoi(getenv("KVH")) : 8, parts = getenv("PARTS") ? atoi(getenv("PARTS")) : 1;
  const bool mma = getenv("MMA") != nullptr;  // the tensor-core kernel, ls_attention_dmma_d128
  const int heads = 32, D = 128, bs = 16, layers = 32;
  const int kv_dim = kvh * D, stride = (heads + 2 * kvh) * D;
  const int maxrows = 64, maxsplits = 32;
  float *qkv, *out, *partial;
  unsigned* arrivals;
  int *positions, *slots, *toff, *seqlast, *tables;
  CK(cudaMalloc(&qkv, (long)maxrows * stride * 4)); CK(cudaMalloc(&out, (long)maxrows * heads * D * 4));
  CK(cudaMalloc(&partial, (long)maxrows * heads * maxsplits * (D + 2) * 4)); CK(cudaMalloc(&arrivals, maxrows * kvh * parts * 4)); CK(cudaMemset(arrivals, 0, maxrows * kvh * parts * 4));
  CK(cudaMalloc(&positions, maxrows * 4)); CK(cudaMalloc(&slots, maxrows * 4)); CK(cudaMalloc(&toff, maxrows * 4)); CK(cudaMalloc(&seqlast, maxrows * 4));
  { std::vector<float> q((long)maxrows * stride); for (auto& v : q) v = (rand() % 2000 - 1000) / 1000.0f;
    CK(cudaMemcpy(qkv, q.data(), q.size() * 4, cudaMemcpyHostToDevice)); }
  const long cacheSlots = 64L * 1024;  // slots per layer: rows x ctx at most
  CK(cudaMalloc(&tables, cacheSlots / bs * 4));
  { std::vector<int> t(cacheSlots / bs); for (size_t i = 0; i < t.size(); ++i) t[i] = (int)((i * 7919) % t.size());
    CK(cudaMemcpy(tables, t.data(), t.size() * 4, cudaMemcpyHostToDevice)); }
  std::vector<uint16_t*> keys(layers), values(layers);
  for (int l = 0; l < layers; ++l) {
    CK(cudaMalloc(&keys[l], cacheSlots * kv_dim * 2)); CK(cudaMalloc(&values[l], cacheSlots * kv_dim * 2));
    fillh<<<512, 256>>>(keys[l], cacheSlots * kv_dim, 17 * l + 1); fillh<<<512, 256>>>(values[l], cacheSlots * kv_dim, 31 * l + 7);
  }
  CK(cudaDeviceSynchronize());
  cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  const float scale = 1.0f / sqrtf((float)D);
  struct Case { int rows, ctx; std::vector<int> splits; };
  std::vector<Case> cases = {{1, 16, {32}}, {1, 64, {32}}, {1, 128, {32}}, {1, 256, {32}}, {1, 512, {32}}, {1, 1024, {32}}, {1, 4096, {32}}, {1, 32768, {32}},
                             {16, 160, {3}}, {16, 1000, {3}}, {64, 160, {1}}, {64, 512, {1}}, {64, 1000, {1}}};
  if (getenv("MANY_ROWS")) {  // split counts at the row counts of batched decode (Attention.splits)
    cases.clear();
    for (int rows : {4, 8})
      for (int ctx : {160, 512, 1000}) cases.push_back({rows, ctx, {2, 4, 8, 16, 32}});
    for (int rows : {16, 32, 64})
      for (int ctx : {160, 512, 1000}) cases.push_back({rows, ctx, {1, 2, 3, 4}});
  }
  if (getenv("CASE")) {  // CASE=rows,ctx,splits: that case alone (e.g. under ncu)
    int r = 0, x = 0, sp = 0;
    if (sscanf(getenv("CASE"), "%d,%d,%d", &r, &x, &sp) != 3) { printf("CASE=rows,ctx,splits\n"); return 1; }
    cases = {{r, x, {sp}}};
  }
  if (getenv("SWEEP")) {  // split counts against context: where one pass stops paying
    cases.clear();
    for (int ctx : {16, 64, 128, 256, 512, 1024, 2048, 4096, 8192}) cases.push_back({1, ctx, {1, 2, 4, 8, 16, 32}});
    for (int ctx : {128, 512, 2048}) cases.push_back({4, ctx, {1, 2, 4, 8}});
    for (int ctx : {160, 1000}) cases.push_back({16, ctx, {1, 2, 3}});
  }
  for (auto& c : cases) {
    const int per = (int)(cacheSlots / c.rows) / bs * bs;  // slots of each row's sequence
    std::vector<int> pos(c.rows), off(c.rows);
    for (int r = 0; r < c.rows; ++r) { pos[r] = c.ctx - 1; off[r] = r * per / bs; }
    if (c.ctx > per) { printf("skip rows %d ctx %d\n", c.rows, c.ctx); continue; }
    std::vector<int> slot(c.rows); for (int r = 0; r < c.rows; ++r) slot[r] = r * per + pos[r];  // any non-negative
    CK(cudaMemcpy(positions, pos.data(), c.rows * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(slots, slot.data(), c.rows * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(seqlast, pos.data(), c.rows * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(toff, off.data(), c.rows * 4, cudaMemcpyHostToDevice));
    for (int splits : c.splits) {
      auto layer = [&](int l) {
        auto kernel = mma ? ls_attention_dmma_d128 : ls_attention_split_d128;
        kernel<<<dim3(kvh * parts, c.rows, splits), LS_ATT_THREADS, 0, st>>>(
            qkv, stride, keys[l], values[l], positions, slots, toff, seqlast, tables, out, heads * D,
            splits > 1 ? partial : nullptr, splits > 1 ? arrivals : nullptr, heads, kvh, bs, scale, 0.0f, nullptr, 1, 0,
            splits, parts, nullptr, nullptr, nullptr);
      };
      layer(0); CK(cudaStreamSynchronize(st));
      std::vector<float> h((long)c.rows * heads * D); CK(cudaMemcpy(h.data(), out, h.size() * 4, cudaMemcpyDeviceToHost));
      char path[512]; snprintf(path, sizeof path, "%s/att_%s_%d_%d_%d.bin", outdir, TAG, c.rows, c.ctx, splits);
      FILE* f = fopen(path, "wb"); fwrite(h.data(), 4, h.size(), f); fclose(f);
      double diff = -1;
      snprintf(path, sizeof path, "%s/att_old_%d_%d_%d.bin", outdir, c.rows, c.ctx, splits);
      if (std::string(TAG) != "old" && (f = fopen(path, "rb"))) {
        std::vector<float> o(h.size()); if (fread(o.data(), 4, o.size(), f) == o.size()) { diff = 0; double n = 0;
          for (size_t i = 0; i < o.size(); ++i) { diff += (h[i] - o[i]) * (h[i] - o[i]); n += o[i] * o[i]; } diff = sqrt(diff / n); }
        fclose(f);
      }
      cudaGraph_t g; cudaGraphExec_t ge;
      CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
      for (int l = 0; l < layers; ++l) layer(l);
      CK(cudaStreamEndCapture(st, &g)); CK(cudaGraphInstantiate(&ge, g, 0));
      for (int i = 0; i < 3; ++i) CK(cudaGraphLaunch(ge, st));
      cudaEventRecord(a, st);
      for (int i = 0; i < 10; ++i) CK(cudaGraphLaunch(ge, st));
      cudaEventRecord(b, st); CK(cudaEventSynchronize(b)); float ms; cudaEventElapsedTime(&ms, a, b);
      double kvbytes = 2.0 * c.rows * c.ctx * kv_dim * 2;
      double us = ms * 1000 / 10 / layers;
      printf("%s rows %2d ctx %5d splits %2d: %8.2f us per layer (%5.0f GB/s of kv)  rel L2 vs old %s\n", TAG, c.rows, c.ctx, splits, us,
             kvbytes / us / 1e3, diff < 0 ? "-" : std::to_string(diff).c_str());
      cudaGraphExecDestroy(ge); cudaGraphDestroy(g);
    }
  }
  return 0;
}
