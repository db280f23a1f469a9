// The half tensor-core product over Q4_K weights as they lie on the device (GGML super-blocks of 256
// values, 144 bytes), ls_mmh_q4_k (mmq.hip: ls_mmh_products with the LsMmhQ4K weight reader), against
// cuBLAS over the half copy (what runs instead where the weight has one: the product takes ls_mmh_q4_k
// only where it has none, WeightFormat.halfProductsOverCopies), weights cycled through 1 GiB: us a
// product at 12 to 64 tokens on the 8B's shapes, GB/s of Q4_K, and the relative L2 distance between
// the two (the same half operands, float sums in another order).
//
// usage: bash bench/kernels/run.sh mmhk
#include "mmh_lab.cuh"

// Random super-blocks: every byte random, then d and dmin small positive halves.
__global__ void fill_q4_k(uint8_t* w, long blocks, uint32_t seed) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < blocks * LS_Q4_K_BYTES / 4; i += (long)gridDim.x * blockDim.x) {
    uint32_t h = (uint32_t)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995; h ^= h >> 15;
    if (i % (LS_Q4_K_BYTES / 4) == 0) h = (h & 0x03ff03ffu) | 0x1c002000u;  // d ~ 2^-3, dmin ~ 2^-8
    ((uint32_t*)w)[i] = h;
  }
}
int main() {
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cublasHandle_t blas; cublasCreate(&blas);
  float* partials; unsigned* arrivals;
  CK(cudaMalloc(&partials, 256L << 20)); CK(cudaMalloc(&arrivals, 1 << 20)); CK(cudaMemset(arrivals, 0, 1 << 20));
  struct Shape { int rows, k; };
  const Shape shapes[] = {{28672, 4096}, {4096, 14336}, {6144, 4096}, {4096, 4096}};
  LabTimer timer;
  for (auto s : shapes) {
    const long blocks = (long)s.rows * (s.k / LS_QK_K);
    const int copies = (int)((1024L << 20) / (blocks * LS_Q4_K_BYTES)) + 1;
    std::vector<uint8_t*> ws(copies);
    for (int c = 0; c < copies; ++c) { CK(cudaMalloc(&ws[c], blocks * LS_Q4_K_BYTES)); fill_q4_k<<<1024, 256>>>(ws[c], blocks, 7 * c + 1); }
    // half copies cycled through 1 GiB as well, so that neither side reads from L2
    const int hcopies = (int)((1024L << 20) / ((long)s.rows * s.k * 2)) + 1;
    std::vector<uint16_t*> whs(hcopies);
    for (int c = 0; c < hcopies; ++c) { CK(cudaMalloc(&whs[c], (long)s.rows * s.k * 2)); half_copy<ls_deq8_q4_k><<<4096, 256>>>(ws[c % copies], nullptr, whs[c], s.rows, s.k); }
    uint16_t* wh = whs[0];
    uint16_t* xh; float *y, *yref;
    CK(cudaMalloc(&xh, 64L * s.k * 2)); CK(cudaMalloc(&y, 64L * s.rows * 4)); CK(cudaMalloc(&yref, 64L * s.rows * 4));
    fill_half<<<256, 256>>>(xh, 64L * s.k, 99);
    CK(cudaDeviceSynchronize());
    printf("q4_k %5d x %5d (%.1f MB):\n", s.rows, s.k, blocks * LS_Q4_K_BYTES / 1e6);
    for (int n : {12, 16, 24, 32, 48, 64}) {
      const float one = 1, zero = 0;
      cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, s.rows, n, s.k, &one, wh, CUDA_R_16F, s.k, xh, CUDA_R_16F, s.k,
                   &zero, yref, CUDA_R_32F, s.rows, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      const double blas_us = timer.us([&](int c) {
        cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, s.rows, n, s.k, &one, whs[c % hcopies], CUDA_R_16F, s.k, xh, CUDA_R_16F, s.k,
                     &zero, y, CUDA_R_32F, s.rows, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      });
      const int tiles = ((s.rows + LS_MMH_ROWS - 1) / LS_MMH_ROWS) * ((n + LS_MMH_COLS - 1) / LS_MMH_COLS);
      const int splits = mmh_splits(tiles, s.k / LS_QK, sms);
      dim3 grid((s.rows + LS_MMH_ROWS - 1) / LS_MMH_ROWS, (n + LS_MMH_COLS - 1) / LS_MMH_COLS, splits);
      ls_mmh_q4_k<<<grid, LS_MMH_THREADS>>>(ws[0], nullptr, xh, y, s.rows, s.k, n, s.rows, 0, partials, arrivals, splits);
      CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
      const double dist = rel_l2(y, yref, (long)n * s.rows);
      const double us = timer.us([&](int c) {
        ls_mmh_q4_k<<<grid, LS_MMH_THREADS>>>(ws[c % copies], nullptr, xh, y, s.rows, s.k, n, s.rows, 0, partials,
                                              arrivals, splits);
      });
      printf("  n=%2d  blas over a half copy %6.1f us  mmh q4_k (%d shares) %6.1f us (%4.0f GB/s of Q4_K)  rel. L2 %.1e\n", n,
             blas_us, splits, us, blocks * LS_Q4_K_BYTES / us / 1e3, dist);
    }
    for (int c = 0; c < copies; ++c) cudaFree(ws[c]);
    for (int c = 0; c < hcopies; ++c) cudaFree(whs[c]);
    cudaFree(xh); cudaFree(y); cudaFree(yref);
  }
  return 0;
}
