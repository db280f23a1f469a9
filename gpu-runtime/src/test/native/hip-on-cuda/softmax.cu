// MIOpen's miopenSoftmaxForward_V2 for hip-on-cuda when cuDNN is absent (test code; see hoc.h):
// MIOPEN_SOFTMAX_ACCURATE (max subtracted) in MIOPEN_SOFTMAX_MODE_CHANNEL over an NCHW float tensor:
// for every (n, h, w) the C values at stride h*w are normalised; y = alpha * softmax(x) + beta * y.
// One block of 256 threads per (n, h, w). softmax_ptx.h holds this file compiled by
// `nvcc -ptx -arch=compute_80` (regenerate with build.sh --regenerate-ptx when this file changes).
extern "C" __global__ void hoc_softmax_channel(const float* x, float* y, int c, int hw, float alpha, float beta) {
  __shared__ float scratch[256];
  const int n = blockIdx.x / hw, s = blockIdx.x % hw;
  const long base = (long)n * c * hw + s;
  float m = -__int_as_float(0x7f800000);
  for (int i = threadIdx.x; i < c; i += blockDim.x) m = fmaxf(m, x[base + (long)i * hw]);
  scratch[threadIdx.x] = m;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) scratch[threadIdx.x] = fmaxf(scratch[threadIdx.x], scratch[threadIdx.x + w]);
    __syncthreads();
  }
  m = scratch[0];
  __syncthreads();
  float sum = 0.f;
  for (int i = threadIdx.x; i < c; i += blockDim.x) sum += expf(x[base + (long)i * hw] - m);
  scratch[threadIdx.x] = sum;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) scratch[threadIdx.x] += scratch[threadIdx.x + w];
    __syncthreads();
  }
  sum = scratch[0];
  for (int i = threadIdx.x; i < c; i += blockDim.x) {
    const long at = base + (long)i * hw;
    const float v = alpha * (expf(x[at] - m) / sum);
    y[at] = beta == 0.f ? v : v + beta * y[at];  // beta 0: y is not read (it may hold NaN)
  }
}
