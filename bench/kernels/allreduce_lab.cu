// A 70B-shape (Llama 3 70B: 80 layers, width 8192, 64/8 heads, FFN 28672) Q4_0 batch-1 decode step's
// kernel chain on one GPU whole, and split over two GPUs of the host (each shard half the heads and
// FFN rows, as ShardSplit does) with its 160 all-reduces of one 8192-wide row made three ways: none
// (what the products alone cost), NCCL (one group per round, as ShardGroup does) and the tree's
// ls_allreduce_f32 (pushed over peer access in lines that carry their own flags, as NCCL's LL
// protocol does). On 2 H100s (2026-11-28) the kernel it replaced, which read the peers' parts
// between two flag barriers, took 14.07 ms a step against NCCL's 13.20 and this one's 12.14.
// Every chain is captured in one graph per GPU with dependent launches, as the engine runs a decode
// step. Also the all-reduces alone, 160 in a graph. Needs 2 GPUs with peer access and libnccl.so.2
// (LLMSERVE_NCCL_LIBRARY, or found as run.sh finds it). Prints ms per step.
#include "elementwise.hip"
#include "step_chain.cuh"
#include <chrono>
#include <vector>
#include <cuda_runtime.h>

// NCCL's few entry points used here, declared as nccl.h does (no header needed on the host)
extern "C" {
typedef struct ncclComm* ncclComm_t;
int ncclCommInitAll(ncclComm_t* comms, int ndev, const int* devlist);
int ncclGroupStart();
int ncclGroupEnd();
int ncclAllReduce(const void* send, void* recv, size_t count, int type, int op, ncclComm_t comm, cudaStream_t s);
}
#define NCK(x) do { int nccl_rc_ = (x); if (nccl_rc_ != 0) { printf("NCCL error %d at %d\n", nccl_rc_, __LINE__); exit(1);} } while (0)

// every kernel launches early and waits on the device; GEMVs load their first weights first
static const int MODE = 2;

// one GPU's chain: its weights, activations and stream
struct Gpu {
  int dev; cudaStream_t st; std::vector<Mat> mats; Mat out{};
  int8_t* xq; float *xd, *x, *y, *ar; int* xs;
  unsigned *recv, *counters;  // ls_allreduce_f32's receive area and counters
  cudaGraphExec_t ge = nullptr;
};

static const int LAYERS = 80, WIDTH = 8192, FFN = 28672, HEAD = 128, HEADS = 64, KV = 8, VOCAB = 32000;
static const int AR_CAP = LS_AR_MAX_BLOCKS * LS_AR_THREADS * LS_AR_PER_THREAD / 2;  // lines per sender and parity

static void setup(Gpu& g, int dev, int shards, bool output) {
  g.dev = dev; CK(cudaSetDevice(dev));
  CK(cudaStreamCreateWithFlags(&g.st, cudaStreamNonBlocking));
  const int qkv = (HEADS + 2 * KV) * HEAD / shards;
  for (int l = 0; l < LAYERS; ++l) {
    g.mats.push_back(alloc_mat(qkv, WIDTH));
    g.mats.push_back(alloc_mat(WIDTH, HEADS * HEAD / shards));
    g.mats.push_back(alloc_mat(2 * FFN / shards, WIDTH));
    g.mats.push_back(alloc_mat(WIDTH, FFN / shards));
  }
  if (output) g.out = alloc_mat(VOCAB, WIDTH);
  CK(cudaMalloc(&g.xq, 65536)); CK(cudaMalloc(&g.xd, 65536)); CK(cudaMalloc(&g.xs, 65536));
  CK(cudaMalloc(&g.x, 1 << 20)); CK(cudaMalloc(&g.y, 1 << 20)); CK(cudaMalloc(&g.ar, 1 << 20));
  CK(cudaMemset(g.xq, 1, 65536)); CK(cudaMemset(g.xd, 0, 65536)); CK(cudaMemset(g.xs, 0, 65536));
  CK(cudaMemset(g.x, 0, 1 << 20)); CK(cudaMemset(g.ar, 0, 1 << 20));
  CK(cudaMalloc(&g.recv, 2L * 2 * AR_CAP * 16)); CK(cudaMemset(g.recv, 0, 2L * 2 * AR_CAP * 16));
  CK(cudaMalloc(&g.counters, LS_AR_MAX_BLOCKS * 4)); CK(cudaMemset(g.counters, 0, LS_AR_MAX_BLOCKS * 4));
  CK(cudaDeviceSynchronize());
}

static cudaLaunchAttribute pdl_attr[1];
static cudaLaunchConfig_t cfg(Gpu& g, int grid, int threads) {
  cudaLaunchConfig_t c = {}; c.gridDim = grid; c.blockDim = threads; c.stream = g.st;
  c.attrs = pdl_attr; c.numAttrs = 1; return c;
}
static void small(Gpu& g, int blocks, int n) {
  cudaLaunchConfig_t c = cfg(g, blocks, 256);
  CK(cudaLaunchKernelEx(&c, small_op, (const float*)g.x, g.y, n, MODE));
}
static void gemv(Gpu& g, const Mat& m) {
  cudaLaunchConfig_t c = cfg(g, (m.rows + LS_MMV_NARROW_ROWS - 1) / LS_MMV_NARROW_ROWS, LS_MMV_THREADS);
  CK(cudaLaunchKernelEx(&c, gemv_q4, (const uint8_t*)m.w, (const uint16_t*)m.d, (const int8_t*)g.xq,
                        (const float*)g.xd, (const int*)g.xs, g.y, m.rows, m.k, MODE));
}

enum Reduce { NONE, NCCL, PEER };
static const char* reduce_name[] = {"none (products alone)", "NCCL", "ls_allreduce_f32 (peer access)"};
static ncclComm_t comms[2];

static void all_reduce(std::vector<Gpu>& gs, Reduce how, int n) {
  if (how == NONE || gs.size() < 2) return;
  if (how == NCCL) {
    NCK(ncclGroupStart());
    for (int r = 0; r < 2; ++r) NCK(ncclAllReduce(gs[r].ar, gs[r].ar, n, 7 /* float32 */, 0 /* sum */, comms[r], gs[r].st));
    NCK(ncclGroupEnd());
    return;
  }
  for (int r = 0; r < 2; ++r) {
    Gpu& g = gs[r]; CK(cudaSetDevice(g.dev));
    const int per_block = LS_AR_THREADS * LS_AR_PER_THREAD;
    cudaLaunchConfig_t c = cfg(g, (n + per_block - 1) / per_block, LS_AR_THREADS);
    unsigned* nu = nullptr;
    CK(cudaLaunchKernelEx(&c, ls_allreduce_f32, g.ar, gs[0].recv, gs[1].recv, nu, nu, nu, nu, nu, nu, g.counters, r, 2, n,
                          AR_CAP));
  }
}

// every GPU's chain of one decode step, captured into one graph each; reductions-only when `bare`
static void capture(std::vector<Gpu>& gs, Reduce how, bool bare) {
  for (auto& g : gs) { CK(cudaSetDevice(g.dev)); CK(cudaStreamBeginCapture(g.st, cudaStreamCaptureModeRelaxed)); }
  const int shards = (int)gs.size();
  for (int l = 0; l < LAYERS; ++l) {
    for (auto& g : gs) {
      CK(cudaSetDevice(g.dev));
      if (bare) { small(g, 1, WIDTH); continue; }
      small(g, 1, WIDTH);                  // add + rms norm + q8
      gemv(g, g.mats[4 * l]);              // qkv
      small(g, 1, (HEADS + 2 * KV) * HEAD / shards);  // rope + cache write
      small(g, KV / shards, 1024);         // attention, one block per kv head
      small(g, 1, HEADS * HEAD / shards);  // quantize
      gemv(g, g.mats[4 * l + 1]);          // o
    }
    all_reduce(gs, how, WIDTH);
    for (auto& g : gs) {
      CK(cudaSetDevice(g.dev));
      if (bare) { small(g, 1, WIDTH); continue; }
      small(g, 1, WIDTH);                  // add + rms norm + q8
      gemv(g, g.mats[4 * l + 2]);          // gate|up
      small(g, 1, FFN / shards);           // swiglu + q8
      gemv(g, g.mats[4 * l + 3]);          // down
    }
    all_reduce(gs, how, WIDTH);
  }
  if (!bare) { CK(cudaSetDevice(gs[0].dev)); small(gs[0], 1, WIDTH); gemv(gs[0], gs[0].out); }
  for (auto& g : gs) {
    CK(cudaSetDevice(g.dev));
    cudaGraph_t graph; CK(cudaStreamEndCapture(g.st, &graph));
    if (g.ge) CK(cudaGraphExecDestroy(g.ge));
    CK(cudaGraphInstantiate(&g.ge, graph, 0)); CK(cudaGraphDestroy(graph));
  }
}

static double time_steps(std::vector<Gpu>& gs, int reps) {
  auto step = [&]() { for (auto& g : gs) { CK(cudaSetDevice(g.dev)); CK(cudaGraphLaunch(g.ge, g.st)); } };
  auto sync = [&]() { for (auto& g : gs) { CK(cudaSetDevice(g.dev)); CK(cudaStreamSynchronize(g.st)); } };
  for (int i = 0; i < 3; ++i) step();
  sync();
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) step();
  sync();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / reps;
}

// the sums of both ranks after one reduction of known values, against the host's
static void check(std::vector<Gpu>& gs, Reduce how) {
  const int n = WIDTH;
  std::vector<float> h(n), want(n, 0.0f), got(n);
  for (int r = 0; r < 2; ++r) {
    for (int i = 0; i < n; ++i) { h[i] = (float)((i * 7 + r * 13) % 101) * 0.25f - 12.0f; want[i] += h[i]; }
    CK(cudaSetDevice(gs[r].dev)); CK(cudaMemcpy(gs[r].ar, h.data(), n * 4, cudaMemcpyHostToDevice));
  }
  all_reduce(gs, how, n);
  int bad = 0;
  for (int r = 0; r < 2; ++r) {
    CK(cudaSetDevice(gs[r].dev)); CK(cudaStreamSynchronize(gs[r].st));
    CK(cudaMemcpy(got.data(), gs[r].ar, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) bad += got[i] != want[i];
  }
  printf("  %-36s sums of known values: %s\n", reduce_name[how], bad ? "WRONG" : "exact on both ranks");
  if (bad) exit(1);
}

int main() {
  int count = 0; CK(cudaGetDeviceCount(&count));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  printf("%d x %s, SMs %d\n", count, prop.name, prop.multiProcessorCount);
  pdl_attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  pdl_attr[0].val.programmaticStreamSerializationAllowed = 1;
  const int reps = 20;
  {
    std::vector<Gpu> one(1);
    setup(one[0], 0, 1, true);
    capture(one, NONE, false);
    for (int k = 0; k < 2; ++k) printf("one GPU, whole 70B step: %.3f ms (%.1f tok/s)\n", time_steps(one, reps), 1000 / time_steps(one, reps));
    for (auto& m : one[0].mats) { cudaFree(m.w); cudaFree(m.d); }
    cudaFree(one[0].out.w); cudaFree(one[0].out.d);
  }
  if (count < 2) { printf("one GPU only: no split\n"); return 0; }
  int can = 0; CK(cudaDeviceCanAccessPeer(&can, 0, 1));
  if (!can) { printf("GPUs 0 and 1 do not reach each other\n"); return 0; }
  CK(cudaSetDevice(0)); CK(cudaDeviceEnablePeerAccess(1, 0));
  CK(cudaSetDevice(1)); CK(cudaDeviceEnablePeerAccess(0, 0));
  const int devs[2] = {0, 1};
  NCK(ncclCommInitAll(comms, 2, devs));
  std::vector<Gpu> two(2);
  setup(two[0], 0, 2, true);
  setup(two[1], 1, 2, false);
  for (Reduce how : {NCCL, PEER}) check(two, how);
  for (int round = 0; round < 2; ++round) {
    for (Reduce how : {NONE, NCCL, PEER}) {
      capture(two, how, true);
      const double bare = time_steps(two, reps);
      capture(two, how, false);
      const double ms = time_steps(two, reps);
      printf("split over 2, all-reduce %-36s step %.3f ms (%.1f tok/s); 160 all-reduces + 160 small ops alone %.3f ms (%.2f us each)\n",
             reduce_name[how], ms, 1000 / ms, bare, bare * 1000 / 160);
    }
  }
  for (Reduce how : {NCCL, PEER}) check(two, how);
  return 0;
}
