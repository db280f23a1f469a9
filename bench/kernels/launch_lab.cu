// What a kernel costs in a chain of 300 small ones captured in one graph (1 to 2048 blocks), with and
// without programmatic dependent launch (cudaGridDependencySynchronize at the start, the trigger at
// the end): the floor every operation of a decode step pays.
#include <cstdio>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); return 1;} } while (0)
__global__ void tiny(float* p, int n, int pdl) {
  if (pdl) cudaGridDependencySynchronize();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * 1.0001f + 1.0f;
  if (pdl) cudaTriggerProgrammaticLaunchCompletion();
}
int main() {
  float* p; CK(cudaMalloc(&p, 1 << 24));
  cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int blocks : {1, 32, 264, 2048}) for (int pdl : {0, 1}) {
    const int chain = 300;
    cudaGraph_t g; cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    for (int i = 0; i < chain; ++i) {
      cudaLaunchConfig_t cfg = {}; cfg.gridDim = blocks; cfg.blockDim = 128; cfg.stream = st;
      cudaLaunchAttribute attr[1]; attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization; attr[0].val.programmaticStreamSerializationAllowed = 1;
      cfg.attrs = attr; cfg.numAttrs = pdl;
      CK(cudaLaunchKernelEx(&cfg, tiny, p, blocks * 128, pdl));
    }
    CK(cudaStreamEndCapture(st, &g)); CK(cudaGraphInstantiate(&ge, g, 0));
    for (int i = 0; i < 3; ++i) CK(cudaGraphLaunch(ge, st));
    cudaEventRecord(a, st);
    for (int i = 0; i < 20; ++i) CK(cudaGraphLaunch(ge, st));
    cudaEventRecord(b, st); CK(cudaEventSynchronize(b)); float ms; cudaEventElapsedTime(&ms, a, b);
    printf("chain of %d kernels, %4d blocks, pdl %d: %.2f us per kernel\n", chain, blocks, pdl, ms * 1000 / 20 / chain);
  }
  return 0;
}
